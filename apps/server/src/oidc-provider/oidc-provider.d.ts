// oidc-provider ships no type declarations: the small part of its documented API that Gatehouse uses.
declare module "oidc-provider" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export type KoaContextWithOIDC = {
    oidc: {
      client?: { clientId: string };
      session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
      result?: { consent?: { grantId?: string } };
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

  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    listen(port: number, host: string, done: () => void): void;
    on(event: string, listener: (...args: unknown[]) => void): void;
    Client: {
      prototype: { compareClientSecret(actual: string): boolean | Promise<boolean>; clientSecret?: string };
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
