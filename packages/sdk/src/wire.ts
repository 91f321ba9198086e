// The JSON objects of the wire (WIRE.md §4.0) as the SDK reads them. Plain types: the server's answers are trusted
// to have these shapes (the contract's schemas check them on the server side), so the SDK carries no validator.

export type UserJson = {
  id: string;
  primary_email: string | null;
  primary_email_verified: boolean;
  primary_email_auth_enabled?: boolean;
  display_name: string | null;
  selected_team: TeamJson | null;
  selected_team_id: string | null;
  profile_image_url: string | null;
  signed_up_at_millis: number;
  has_password: boolean;
  otp_auth_enabled: boolean;
  passkey_auth_enabled: boolean;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata?: unknown;
  last_active_at_millis?: number;
  is_anonymous: boolean;
  is_restricted: boolean;
  restricted_reason: { type: string } | null;
  restricted_by_admin?: boolean;
  restricted_by_admin_reason?: string | null;
  restricted_by_admin_private_details?: string | null;
  country_code?: string | null;
  risk_scores?: { sign_up: { bot: number; free_trial_abuse: number } };
  oauth_providers: { id: string; account_id: string; email: string | null }[];
  auth_with_email: boolean;
  requires_totp_mfa: boolean;
};

export type TeamJson = {
  id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata?: unknown;
  created_at_millis?: number;
};

export type ContactChannelJson = {
  id: string;
  user_id: string;
  value: string;
  type: "email";
  used_for_auth: boolean;
  is_verified: boolean;
  is_primary: boolean;
};

export type SessionJson = {
  id: string;
  user_id: string;
  created_at: number;
  last_used_at: number | null;
  is_impersonation: boolean;
  is_current_session: boolean;
};

export type TeamInvitationJson = {
  id: string;
  team_id: string;
  team_display_name: string;
  expires_at_millis: number;
  recipient_email: string | null;
};

export type MemberProfileJson = {
  team_id: string;
  user_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  user?: UserJson;
};

export type PermissionJson = { id: string; user_id: string; team_id: string };

export type ProjectJson = {
  id: string;
  display_name: string;
  /** [GO] Absent from Stack's client view; a Stack server does not send them. */
  logo_url?: string | null;
  logo_dark_mode_url?: string | null;
  config: {
    sign_up_enabled: boolean;
    credential_enabled: boolean;
    magic_link_enabled: boolean;
    passkey_enabled: boolean;
    client_team_creation_enabled: boolean;
    client_user_deletion_enabled: boolean;
    allow_user_api_keys: boolean;
    allow_team_api_keys: boolean;
    oauth_providers: { id: string }[];
    /** [GO] Present while the project's bot protection is on. */
    bot_challenge_site_key?: string | null;
    bot_challenge_script_url?: string;
  };
};

export type SignInJson = {
  access_token: string;
  refresh_token: string;
  user_id: string;
  is_new_user?: boolean;
};

export type List<T> = { items: T[]; is_paginated: boolean; pagination?: { next_cursor: string | null } };
