// Starts the API reference page (/api/v1/docs): Scalar with the settings the page carries (docs-page.tsx), and
// mends what an accessibility check finds in Scalar's own markup. Served as a file: the page allows no inline script.
const config = JSON.parse(document.getElementById("reference-config")?.textContent ?? "{}");
// Try-it requests go to the origin the page came from, the one place its policy lets them go.
config.servers = [{ url: window.location.origin, description: "This server" }];
window.Scalar.createApiReference("#reference", config);

/**
 * Scalar 1.72's markup, mended where axe finds it wanting (its own fixes will make these no-ops): icon-only copy
 * buttons without a name and pointing at elements that do not exist, editors and comboboxes without a name or state,
 * a button whose role is taken away, a picker whose name leaves out what it shows, and a group's endpoint list
 * that scrolls (a group of more endpoints than its box holds) but cannot be reached from the keyboard.
 */
function mendAccessibility() {
  for (const button of document.querySelectorAll('button[class*="copy-button"]')) {
    if (!button.hasAttribute("aria-label")) {
      button.setAttribute("aria-label", "Copy code");
    }
    const controls = button.getAttribute("aria-controls");
    if (controls && !document.getElementById(controls)) button.removeAttribute("aria-controls");
  }
  for (const editor of document.querySelectorAll('[role="combobox"][contenteditable="true"]')) {
    if (!editor.getAttribute("aria-label")?.trim()) {
      const label = document.querySelector(`label[for="${editor.parentElement?.id}"]`)?.textContent;
      editor.setAttribute("aria-label", label === "Name" ? "Header name" : (label ?? "Value"));
    }
    if (!editor.hasAttribute("aria-expanded")) editor.setAttribute("aria-expanded", "false");
  }
  for (const code of document.querySelectorAll('.cm-content[role="textbox"]:not([aria-label])')) {
    code.setAttribute("aria-label", code.getAttribute("contenteditable") === "true" ? "Code editor" : "Code");
  }
  for (const button of document.querySelectorAll('button[role="none"]')) button.removeAttribute("role");
  for (const list of document.querySelectorAll("ul.endpoints:not([tabindex])"))
    list.setAttribute("tabindex", "0");
  for (const picker of document.querySelectorAll('button[aria-haspopup="listbox"][aria-label]')) {
    const name = picker.getAttribute("aria-label") ?? "";
    const shown = picker.textContent?.trim() ?? "";
    if (shown && !name.includes(shown)) picker.setAttribute("aria-label", `${name}: ${shown}`);
  }
}
new MutationObserver(mendAccessibility).observe(document.body, { childList: true, subtree: true });
mendAccessibility();
