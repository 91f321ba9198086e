// The dashboard's own texts in every supported locale, through the React package's translator (makeTranslator,
// useLocale: the same choice of language as the pages — provider's lang, the operator's stored locale, the browser).
// The frame (top bar, section navigation) is written per locale below; the screens' texts one row per key with every
// locale side by side, in texts/ (rows.ts). Adding a text: a row there, or a line in each table here
// (messages.test.ts checks that no locale misses one).
import type { SupportedLocale } from "@gatehouse/contract/locales";
import { makeTranslator, useLocale } from "@gatehouse/react/ui";
import { useMemo } from "react";
import { API_KEYS_ROWS } from "./texts/api-keys.ts";
import { AUDIT_ROWS } from "./texts/audit.ts";
import { AUTH_SETTINGS_ROWS } from "./texts/auth-settings.ts";
import { DOMAINS_ROWS } from "./texts/domains.ts";
import { EMAILS_ROWS } from "./texts/emails.ts";
import { IMPORTS_ROWS } from "./texts/imports.ts";
import { OAUTH_CLIENTS_ROWS } from "./texts/oauth-clients.ts";
import { OVERVIEW_ROWS } from "./texts/overview.ts";
import { PERMISSIONS_ROWS } from "./texts/permissions.ts";
import { PROJECT_LOGO_ROWS } from "./texts/project-logo.ts";
import { column } from "./texts/rows.ts";
import { SIGN_IN_SETTINGS_ROWS } from "./texts/sign-in-settings.ts";
import { SSO_ROWS } from "./texts/sso.ts";
import { TEAM_MEMBERS_ROWS } from "./texts/team-members.ts";
import { TEAMS_ROWS } from "./texts/teams.ts";
import { TRUST_ROWS } from "./texts/trust.ts";
import { USER_ACCESS_ROWS } from "./texts/user-access.ts";
import { USER_PARTS_ROWS } from "./texts/user-parts.ts";
import { USER_PICKER_ROWS } from "./texts/user-picker.ts";
import { USERS_ROWS } from "./texts/users.ts";
import { USERS_BULK_ROWS } from "./texts/users-bulk.ts";
import { USERS_TABLE_ROWS } from "./texts/users-table.ts";
import { WEBHOOK_ENDPOINTS_ROWS } from "./texts/webhook-endpoints.ts";
import { WEBHOOKS_ROWS } from "./texts/webhooks.ts";

const SCREEN_ROWS = {
  ...OVERVIEW_ROWS,
  ...TEAMS_ROWS,
  ...API_KEYS_ROWS,
  ...DOMAINS_ROWS,
  ...WEBHOOKS_ROWS,
  ...USERS_ROWS,
  ...USERS_TABLE_ROWS,
  ...USER_PARTS_ROWS,
  ...USERS_BULK_ROWS,
  ...USER_ACCESS_ROWS,
  ...USER_PICKER_ROWS,
  ...TEAM_MEMBERS_ROWS,
  ...SSO_ROWS,
  ...OAUTH_CLIENTS_ROWS,
  ...TRUST_ROWS,
  ...AUDIT_ROWS,
  ...PROJECT_LOGO_ROWS,
  ...AUTH_SETTINGS_ROWS,
  ...SIGN_IN_SETTINGS_ROWS,
  ...PERMISSIONS_ROWS,
  ...WEBHOOK_ENDPOINTS_ROWS,
  ...EMAILS_ROWS,
  ...IMPORTS_ROWS,
};

const FRAME_EN = {
  "nav.overview": "Overview",
  "nav.users": "Users",
  "nav.teams": "Teams",
  "nav.permissions": "Team permissions",
  "nav.auth": "Authentication",
  "nav.domains": "Domains & production",
  "nav.emails": "E-mails",
  "nav.apiKeys": "API keys",
  "nav.webhooks": "Webhooks",
  "nav.oauthApps": "OAuth apps",
  "nav.auditLog": "Audit log",
  "nav.trust": "Trust & safety",
  "frame.sections": "Sections",
  "frame.projectSections": "Project sections",
  "frame.project": "Project",
  "frame.allProjects": "All projects…",
  "users.count": "{n, plural, one {# user} other {# users}}",
} as const;

export const en = { ...FRAME_EN, ...column(SCREEN_ROWS, "en") };

export type DashboardKey = keyof typeof en;
type OtherLocale = Exclude<SupportedLocale, "en">;
type Table = Partial<Record<DashboardKey, string>>;

const FRAME_TABLES: Record<OtherLocale, Partial<Record<keyof typeof FRAME_EN, string>>> = {
  de: {
    "nav.overview": "Übersicht",
    "nav.users": "Benutzer",
    "nav.teams": "Teams",
    "nav.permissions": "Teamberechtigungen",
    "nav.auth": "Authentifizierung",
    "nav.domains": "Domains & Produktion",
    "nav.emails": "E-Mails",
    "nav.apiKeys": "API-Schlüssel",
    "nav.webhooks": "Webhooks",
    "nav.oauthApps": "OAuth-Apps",
    "nav.auditLog": "Audit-Log",
    "nav.trust": "Vertrauen & Sicherheit",
    "frame.sections": "Bereiche",
    "frame.projectSections": "Projektbereiche",
    "frame.project": "Projekt",
    "frame.allProjects": "Alle Projekte…",
    "users.count": "{n, plural, one {# Benutzer} other {# Benutzer}}",
  },
  fr: {
    "nav.overview": "Vue d’ensemble",
    "nav.users": "Utilisateurs",
    "nav.teams": "Équipes",
    "nav.permissions": "Permissions d’équipe",
    "nav.auth": "Authentification",
    "nav.domains": "Domaines et production",
    "nav.emails": "E-mails",
    "nav.apiKeys": "Clés API",
    "nav.webhooks": "Webhooks",
    "nav.oauthApps": "Applications OAuth",
    "nav.auditLog": "Journal d’audit",
    "nav.trust": "Confiance et sécurité",
    "frame.sections": "Sections",
    "frame.projectSections": "Sections du projet",
    "frame.project": "Projet",
    "frame.allProjects": "Tous les projets…",
    "users.count": "{n, plural, one {# utilisateur} other {# utilisateurs}}",
  },
  es: {
    "nav.overview": "Resumen",
    "nav.users": "Usuarios",
    "nav.teams": "Equipos",
    "nav.permissions": "Permisos de equipo",
    "nav.auth": "Autenticación",
    "nav.domains": "Dominios y producción",
    "nav.emails": "Correos",
    "nav.apiKeys": "Claves de API",
    "nav.webhooks": "Webhooks",
    "nav.oauthApps": "Aplicaciones OAuth",
    "nav.auditLog": "Registro de auditoría",
    "nav.trust": "Confianza y seguridad",
    "frame.sections": "Secciones",
    "frame.projectSections": "Secciones del proyecto",
    "frame.project": "Proyecto",
    "frame.allProjects": "Todos los proyectos…",
    "users.count": "{n, plural, one {# usuario} other {# usuarios}}",
  },
  "pt-BR": {
    "nav.overview": "Visão geral",
    "nav.users": "Usuários",
    "nav.teams": "Equipes",
    "nav.permissions": "Permissões de equipe",
    "nav.auth": "Autenticação",
    "nav.domains": "Domínios e produção",
    "nav.emails": "E-mails",
    "nav.apiKeys": "Chaves de API",
    "nav.webhooks": "Webhooks",
    "nav.oauthApps": "Apps OAuth",
    "nav.auditLog": "Log de auditoria",
    "nav.trust": "Confiança e segurança",
    "frame.sections": "Seções",
    "frame.projectSections": "Seções do projeto",
    "frame.project": "Projeto",
    "frame.allProjects": "Todos os projetos…",
    "users.count": "{n, plural, one {# usuário} other {# usuários}}",
  },
  it: {
    "nav.overview": "Panoramica",
    "nav.users": "Utenti",
    "nav.teams": "Team",
    "nav.permissions": "Permessi del team",
    "nav.auth": "Autenticazione",
    "nav.domains": "Domini e produzione",
    "nav.emails": "E-mail",
    "nav.apiKeys": "Chiavi API",
    "nav.webhooks": "Webhook",
    "nav.oauthApps": "App OAuth",
    "nav.auditLog": "Registro di controllo",
    "nav.trust": "Fiducia e sicurezza",
    "frame.sections": "Sezioni",
    "frame.projectSections": "Sezioni del progetto",
    "frame.project": "Progetto",
    "frame.allProjects": "Tutti i progetti…",
    "users.count": "{n, plural, one {# utente} other {# utenti}}",
  },
  ja: {
    "nav.overview": "概要",
    "nav.users": "ユーザー",
    "nav.teams": "チーム",
    "nav.permissions": "チームの権限",
    "nav.auth": "認証",
    "nav.domains": "ドメインと本番環境",
    "nav.emails": "メール",
    "nav.apiKeys": "API キー",
    "nav.webhooks": "Webhook",
    "nav.oauthApps": "OAuth アプリ",
    "nav.auditLog": "監査ログ",
    "nav.trust": "信頼と安全",
    "frame.sections": "セクション",
    "frame.projectSections": "プロジェクトのセクション",
    "frame.project": "プロジェクト",
    "frame.allProjects": "すべてのプロジェクト…",
    "users.count": "{n, plural, other {# 人のユーザー}}",
  },
  ko: {
    "nav.overview": "개요",
    "nav.users": "사용자",
    "nav.teams": "팀",
    "nav.permissions": "팀 권한",
    "nav.auth": "인증",
    "nav.domains": "도메인 및 프로덕션",
    "nav.emails": "이메일",
    "nav.apiKeys": "API 키",
    "nav.webhooks": "웹훅",
    "nav.oauthApps": "OAuth 앱",
    "nav.auditLog": "감사 로그",
    "nav.trust": "신뢰 및 안전",
    "frame.sections": "섹션",
    "frame.projectSections": "프로젝트 섹션",
    "frame.project": "프로젝트",
    "frame.allProjects": "모든 프로젝트…",
    "users.count": "{n, plural, other {사용자 #명}}",
  },
  "zh-Hans": {
    "nav.overview": "概览",
    "nav.users": "用户",
    "nav.teams": "团队",
    "nav.permissions": "团队权限",
    "nav.auth": "身份验证",
    "nav.domains": "域名与生产环境",
    "nav.emails": "邮件",
    "nav.apiKeys": "API 密钥",
    "nav.webhooks": "Webhook",
    "nav.oauthApps": "OAuth 应用",
    "nav.auditLog": "审计日志",
    "nav.trust": "信任与安全",
    "frame.sections": "栏目",
    "frame.projectSections": "项目栏目",
    "frame.project": "项目",
    "frame.allProjects": "所有项目…",
    "users.count": "{n, plural, other {# 个用户}}",
  },
  "zh-Hant": {
    "nav.overview": "總覽",
    "nav.users": "使用者",
    "nav.teams": "團隊",
    "nav.permissions": "團隊權限",
    "nav.auth": "驗證",
    "nav.domains": "網域與正式環境",
    "nav.emails": "電子郵件",
    "nav.apiKeys": "API 金鑰",
    "nav.webhooks": "Webhook",
    "nav.oauthApps": "OAuth 應用程式",
    "nav.auditLog": "稽核日誌",
    "nav.trust": "信任與安全",
    "frame.sections": "區塊",
    "frame.projectSections": "專案區塊",
    "frame.project": "專案",
    "frame.allProjects": "所有專案…",
    "users.count": "{n, plural, other {# 位使用者}}",
  },
  nl: {
    "nav.overview": "Overzicht",
    "nav.users": "Gebruikers",
    "nav.teams": "Teams",
    "nav.permissions": "Teamrechten",
    "nav.auth": "Authenticatie",
    "nav.domains": "Domeinen en productie",
    "nav.emails": "E-mails",
    "nav.apiKeys": "API-sleutels",
    "nav.webhooks": "Webhooks",
    "nav.oauthApps": "OAuth-apps",
    "nav.auditLog": "Auditlogboek",
    "nav.trust": "Vertrouwen & veiligheid",
    "frame.sections": "Onderdelen",
    "frame.projectSections": "Projectonderdelen",
    "frame.project": "Project",
    "frame.allProjects": "Alle projecten…",
    "users.count": "{n, plural, one {# gebruiker} other {# gebruikers}}",
  },
  pl: {
    "nav.overview": "Przegląd",
    "nav.users": "Użytkownicy",
    "nav.teams": "Zespoły",
    "nav.permissions": "Uprawnienia zespołów",
    "nav.auth": "Uwierzytelnianie",
    "nav.domains": "Domeny i produkcja",
    "nav.emails": "E-maile",
    "nav.apiKeys": "Klucze API",
    "nav.webhooks": "Webhooki",
    "nav.oauthApps": "Aplikacje OAuth",
    "nav.auditLog": "Dziennik audytu",
    "nav.trust": "Zaufanie i bezpieczeństwo",
    "frame.sections": "Sekcje",
    "frame.projectSections": "Sekcje projektu",
    "frame.project": "Projekt",
    "frame.allProjects": "Wszystkie projekty…",
    "users.count":
      "{n, plural, one {# użytkownik} few {# użytkowników} many {# użytkowników} other {# użytkownika}}",
  },
  ar: {
    "nav.overview": "نظرة عامة",
    "nav.users": "المستخدمون",
    "nav.teams": "الفرق",
    "nav.permissions": "صلاحيات الفرق",
    "nav.auth": "المصادقة",
    "nav.domains": "النطاقات والإنتاج",
    "nav.emails": "البريد الإلكتروني",
    "nav.apiKeys": "مفاتيح API",
    "nav.webhooks": "خطافات الويب",
    "nav.oauthApps": "تطبيقات OAuth",
    "nav.auditLog": "سجل التدقيق",
    "nav.trust": "الثقة والأمان",
    "frame.sections": "الأقسام",
    "frame.projectSections": "أقسام المشروع",
    "frame.project": "المشروع",
    "frame.allProjects": "كل المشاريع…",
    "users.count":
      "{n, plural, zero {لا مستخدمين} one {مستخدم واحد} two {مستخدمان} few {# مستخدمين} many {# مستخدمًا} other {# مستخدم}}",
  },
};

export const DASHBOARD_TABLES = Object.fromEntries(
  Object.entries(FRAME_TABLES).map(([locale, frame]) => [
    locale,
    { ...frame, ...column(SCREEN_ROWS, locale as OtherLocale) },
  ]),
) as Record<OtherLocale, Table>;

/** The dashboard's translate function in the locale the pages use. */
export function useDashboardTranslation() {
  const locale = useLocale();
  return useMemo(() => makeTranslator<DashboardKey>(en, { en, ...DASHBOARD_TABLES }, locale), [locale]);
}
