// Vite's module types (CSS imports).
/// <reference types="vite/client" />
