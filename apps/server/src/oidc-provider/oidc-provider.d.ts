// oidc-provider ships no type declarations: the small part of its documented API that Gatehouse uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type KoaContextWithOIDC = {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string }; login?: Record<string, unknown> };
      params?: Record<string, unknown>;
      provider: Provider;
    };
  };

  export type GrantInstance = {
    jti: string;
    accountId: string;
    clientId: string;
    addOIDCScope(scope: string): void;
    getOIDCScope(): string;
    addOIDCClaims(claims: string[]): void;
    rejectOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
    destroy(): Promise<void>;
  };

  export type InteractionInstance = {
    uid: string;
    iat: number;
    exp: number;
    returnTo: string;
    grantId?: string;
    params: Record<string, unknown> & { client_id: string; scope?: string };
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    session?: { accountId?: string };
    result?: Record<string, unknown>;
    save(ttl: number): Promise<string>;
  };

  /** What oidc-provider throws for a client that fails to authenticate (invalid_client). */
  export const errors: { InvalidClientAuth: new (detail: string) => Error };

  export type ClientInstance = {
    clientId: string;
    clientSecret?: string;
    tokenEndpointAuthMethod?: string;
    backchannelLogoutUri?: string;
    compareClientSecret(actual: string): boolean | Promise<boolean>;
    backchannelLogout(sub: string, sid: string | undefined): Promise<void>;
  };

  export default class Provider {
    /** The context of the request being handled (oidc-provider keeps it in AsyncLocalStorage). */
    static readonly ctx: KoaContextWithOIDC | undefined;
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    listen(port: number, host: string, done: () => void): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    Client: {
      prototype: ClientInstance;
      find(id: string): Promise<ClientInstance | undefined>;
    };
    Grant: {
      new (init: { accountId: string; clientId: string }): GrantInstance;
      find(id: string): Promise<GrantInstance | undefined>;
    };
    Interaction: {
      new (id: string, payload: Record<string, unknown>): InteractionInstance;
      find(id: string): Promise<InteractionInstance | undefined>;
    };
  }
}
