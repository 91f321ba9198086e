// The SSO sign-in, the same shape for OIDC and SAML and the same ending as an OAuth sign-in:
//
// 1. AUTHORIZE (`POST /auth/sso/authorize`). The connection (by id, or by the e-mail's verified domain) and the app's
//    URLs are checked; the app's request is stored as a 10-minute `sso_flow` code, which is the state (OIDC) or
//    RelayState (SAML) sent to the identity provider, with our own PKCE verifier and nonce sealed in it.
// 2. RETURN. The code is used once; the protocol validates the provider's answer; one transaction provisions the
//    user (sso/provisioning.ts) and writes an `oauth_authorization_code` bound to the app's redirect URI and PKCE
//    challenge. The user goes back to the app with it; a known error goes back as query parameters.
// 3. EXCHANGE: `POST /auth/oauth/token`, unchanged (oauth/flow.ts), so the SDK's OAuth callback handling works.
import { randomBytes } from "node:crypto";
import { isKnownError, KnownErrors, type SsoConnectionTest } from "@gatehouse/contract";
import type { Clock } from "../clock.ts";
import type { SecretBox } from "../crypto/secret-box.ts";
import { type Db, inTransaction } from "../db/client.ts";
import type { ProjectsRepo } from "../db/projects-repo.ts";
import { errorRedirect, issueAuthorizationCode } from "../oauth/flow.ts";
import type { Project } from "../services/projects.ts";
import { assertTrustedUrl, isTrustedUrl } from "../services/trusted-urls.ts";
import type { VerificationCodeService } from "../services/verification-codes.ts";
import { TextError } from "../text-error.ts";
import { type OidcSettings, type SamlSettings, ssoUrls } from "./connections.ts";
import type { IdentityClaims, OidcRelyingParty } from "./oidc.ts";
import type { AssertedIdentity, Provisioning } from "./provisioning.ts";
import type { SsoConnectionRow, SsoRepo } from "./repo.ts";
import type { SamlServiceProvider, VerifiedAssertion } from "./saml.ts";

const INVALID_STATE = "Invalid SSO state. Please try signing in again.";

/** A provider's identity, and for SAML the assertion whose id must be used once. */
type Identified = AssertedIdentity & { assertion?: VerifiedAssertion };

const invalid = (connectionId: string, reason: string) =>
  KnownErrors.SSO_IDENTITY_PROVIDER_ERROR({ connection_id: connectionId, reason });

/** What `authorize` stores under the state. */
export type SsoFlowData = {
  connection_id: string;
  redirect_uri: string;
  error_redirect_uri: string | null;
  after_callback_redirect_url: string | null;
  client_state: string;
  code_challenge: string;
  sealed_verifier: string;
  nonce: string;
  /** SAML: the id of our AuthnRequest, which the assertion must answer (InResponseTo). */
  saml_request_id?: string;
  /** A test sign-in (the SSO tab's "Test connection"): the answer is reported, no one is signed in. */
  test?: true;
  /** Set on a test flow's record once the identity provider answered. */
  test_result?: Omit<SsoConnectionTest, "id" | "connection_id">;
};

export type AuthorizeInput = {
  connection_id?: string;
  email?: string;
  redirect_uri: string;
  state: string;
  code_challenge: string;
  error_redirect_uri?: string;
  after_callback_redirect_url?: string;
};

export type SsoFlowDeps = {
  db: Db;
  clock: Clock;
  codes: VerificationCodeService;
  projectsRepo: ProjectsRepo;
  repo: SsoRepo;
  provisioning: Provisioning;
  oidc: OidcRelyingParty;
  saml: SamlServiceProvider;
  baseUrl: string;
  /** Seals our PKCE verifiers inside the stored flow. */
  box: SecretBox;
  /** Gives a SAML connection made before encrypted assertions its key (connections.ts `withEncryptionKey`). */
  withEncryptionKey: (connection: SsoConnectionRow) => Promise<SsoConnectionRow>;
};

export function createSsoFlow(deps: SsoFlowDeps) {
  /** The enabled connection the request names, or the one of the e-mail's verified domain. */
  async function resolveConnection(project: Project, input: AuthorizeInput): Promise<SsoConnectionRow> {
    if (input.connection_id) {
      const row = await deps.repo.findConnection(deps.db, project.id, input.connection_id);
      if (!row?.enabled) throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: input.connection_id });
      return deps.withEncryptionKey(row);
    }
    const domain = input.email?.split("@")[1]?.toLowerCase();
    if (!domain) throw KnownErrors.SCHEMA_ERROR({ message: "Give connection_id or email." });
    const claim = await deps.repo.findVerifiedDomain(deps.db, project.id, domain);
    const candidates = claim ? await deps.repo.listConnections(deps.db, project.id, claim.teamId) : [];
    const row = candidates.find((c) => c.enabled && (!claim?.connectionId || c.id === claim.connectionId));
    if (!row) throw KnownErrors.SSO_DOMAIN_NOT_FOUND({ domain });
    return deps.withEncryptionKey(row);
  }

  /** The stored flow for this state and connection, used once; its project. */
  async function consume(
    connectionId: string,
    state: string,
  ): Promise<{ project: Project; flow: SsoFlowData; codeId: string }> {
    const stored = state ? await deps.codes.find("sso_flow", state) : undefined;
    const flow = stored?.data as SsoFlowData | undefined;
    // A state minted for another connection is refused: one team's flow cannot finish at another's connection.
    if (!stored || !flow || flow.connection_id !== connectionId) throw new TextError(400, INVALID_STATE);
    const project = await deps.projectsRepo.find(stored.projectId);
    if (!project) throw new TextError(400, INVALID_STATE);
    try {
      await deps.codes.use(
        { projectId: project.id, purpose: "sso_flow", code: state },
        async () => undefined,
      );
    } catch (error) {
      if (isKnownError(error) && error.code === "VERIFICATION_CODE_EXPIRED")
        throw KnownErrors.OUTER_OAUTH_TIMEOUT();
      if (isKnownError(error) && error.code.startsWith("VERIFICATION_CODE_"))
        throw new TextError(400, INVALID_STATE);
      throw error;
    }
    return { project, flow, codeId: stored.id };
  }

  /** One transaction from the identity to the app's authorization code; retried once after a lost race. */
  async function settle(
    project: Project,
    connection: SsoConnectionRow,
    flow: SsoFlowData,
    identity: AssertedIdentity,
  ) {
    return issueAuthorizationCode(deps, project.id, flow, (tx) =>
      deps.provisioning.signIn(tx, project, connection, identity),
    );
  }

  /** Where the user goes after the provider's answer: the app with a code, or with the known error. */
  async function finish(
    project: Project,
    flow: SsoFlowData,
    connectionId: string,
    identify: (connection: SsoConnectionRow) => Promise<Identified>,
  ): Promise<string> {
    try {
      const connection = await deps.repo.findConnection(deps.db, project.id, connectionId);
      if (!connection?.enabled) throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: connectionId });
      const code = await settle(project, connection, flow, await identify(connection));
      const target = new URL(flow.redirect_uri);
      target.searchParams.set("code", code);
      target.searchParams.set("state", flow.client_state);
      return target.toString();
    } catch (error) {
      if (!isKnownError(error)) throw error;
      // Only to a URL the project still trusts: the stored URLs were checked at authorize, but the project's
      // domains may have changed since.
      const target = [flow.redirect_uri, flow.error_redirect_uri].find(
        (url) => url && isTrustedUrl(project.config, url),
      );
      if (!target) throw error;
      return errorRedirect(target, error);
    }
  }

  /**
   * A test flow's ending: the identity provider's answer is validated as at sign-in (an assertion's id is spent too),
   * then recorded on the flow for the administrator instead of provisioning anyone; the browser goes back to the page
   * that started the test.
   */
  async function finishTest(
    flow: SsoFlowData,
    codeId: string,
    state: string,
    connectionId: string,
    identify: (connection: SsoConnectionRow) => Promise<Identified>,
  ): Promise<string> {
    let result: NonNullable<SsoFlowData["test_result"]>;
    try {
      const connection = await deps.repo.findConnectionAnywhere(deps.db, connectionId);
      if (!connection) throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: connectionId });
      const identity = await identify(connection);
      await spendAssertion(deps.db, connectionId, identity.assertion);
      result = {
        status: "succeeded",
        subject: identity.subject,
        attributes: identity.attributes,
        error: null,
      };
    } catch (error) {
      if (!isKnownError(error)) throw error;
      result = {
        status: "failed",
        subject: null,
        attributes: null,
        error: { code: error.code, message: error.message, details: error.details },
      };
    }
    await inTransaction(deps.db, (tx) => deps.codes.annotate(tx, codeId, { test_result: result }));
    const back = new URL(flow.redirect_uri);
    back.searchParams.set("sso_test_id", state);
    return back.toString();
  }

  /** An assertion is accepted once, in every process (the id is kept in the database until it expires). */
  async function spendAssertion(db: Db, connectionId: string, assertion: VerifiedAssertion | undefined) {
    if (!assertion) return;
    if (!(await deps.repo.recordAssertionId(db, connectionId, assertion.assertionId, assertion.expiresAt))) {
      throw invalid(connectionId, "This assertion was already used (a replay).");
    }
    // Expired ids can no longer be replayed (the assertion itself is refused): forget them as we go.
    await deps.repo.sweepAssertionIds(db, deps.clock.now());
  }

  /** The enabled SAML connection a response was posted to, and its project. */
  async function samlConnection(
    connectionId: string,
  ): Promise<{ project: Project; connection: SsoConnectionRow }> {
    const connection = await deps.repo.findConnectionAnywhere(deps.db, connectionId);
    const project = connection && (await deps.projectsRepo.find(connection.projectId));
    if (!connection?.enabled || connection.protocol !== "saml" || !project) {
      throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: connectionId });
    }
    return { project, connection };
  }

  /**
   * An IdP-initiated response signs no one in by itself: nothing ties it to this browser, so accepting it would let
   * anyone who holds a valid response (or makes a victim post one) plant a session. Once validated (and its id used),
   * the user is sent to the app with `sso_connection_id`, whose SP-initiated sign-in then passes through the IdP's
   * existing session. RelayState is followed only to a URL the project trusts (no open redirect).
   */
  async function idpInitiated(
    connectionId: string,
    samlResponse: string,
    relayState: string,
  ): Promise<string> {
    const { project, connection } = await samlConnection(connectionId);
    const assertion = await deps.saml.validate(
      connectionId,
      connection.settings as SamlSettings,
      samlResponse,
    );
    if (assertion.inResponseTo)
      throw invalid(connectionId, "The response answers a request that is not pending.");
    await spendAssertion(deps.db, connectionId, assertion);
    const domain = project.config.domains[0];
    const fallback = domain && `${domain.domain.replace(/\/$/, "")}${domain.handler_path}/sign-in`;
    const target = relayState && isTrustedUrl(project.config, relayState) ? relayState : fallback;
    if (!target) throw new TextError(400, "This project has no trusted domain to continue the sign-in on.");
    const url = new URL(target);
    url.searchParams.set("sso_connection_id", connectionId);
    return url.toString();
  }

  /** Stores the flow and answers the identity provider's URL for it. */
  async function start(project: Project, connection: SsoConnectionRow, data: SsoFlowData, verifier: string) {
    const { code: state } = await inTransaction(deps.db, (tx) =>
      deps.codes.create(tx, { projectId: project.id, purpose: "sso_flow", data }),
    );
    if (connection.protocol === "saml") {
      const settings = (await deps.withEncryptionKey(connection)).settings as SamlSettings;
      return {
        state,
        location: await deps.saml.authorizationUrl(
          connection.id,
          settings,
          data.saml_request_id ?? "",
          state,
        ),
      };
    }
    const location = await deps.oidc.authorizationUrl(connection.id, connection.settings as OidcSettings, {
      redirectUri: ssoUrls(deps.baseUrl, connection.id).oidcCallback,
      state,
      nonce: data.nonce,
      codeVerifier: verifier,
    });
    return { state, location };
  }

  return {
    /**
     * A test sign-in through the connection (the SSO tab's "Test connection"): the browser comes back to
     * `returnUrl` with `sso_test_id`, and `testResult` tells what the identity provider sent.
     */
    async startTest(project: Project, connection: SsoConnectionRow, returnUrl: string) {
      const own = returnUrl.startsWith(`${deps.baseUrl.replace(/\/$/, "")}/`);
      if (!own) assertTrustedUrl(project.config, returnUrl);
      const verifier = randomBytes(32).toString("base64url");
      const data: SsoFlowData = {
        connection_id: connection.id,
        redirect_uri: returnUrl,
        error_redirect_uri: null,
        after_callback_redirect_url: null,
        client_state: "",
        code_challenge: "",
        sealed_verifier: deps.box.seal(verifier),
        nonce: randomBytes(24).toString("base64url"),
        ...(connection.protocol === "saml" ? { saml_request_id: `_${randomBytes(20).toString("hex")}` } : {}),
        test: true,
      };
      const { state, location } = await start(project, connection, data, verifier);
      return { id: state, location };
    },

    /** A test's outcome by its id (the flow's state), only for the connection and project that started it. */
    async testResult(projectId: string, connectionId: string, testId: string): Promise<SsoConnectionTest> {
      const stored = await deps.codes.find("sso_flow", testId);
      const flow = stored?.data as SsoFlowData | undefined;
      if (!stored || stored.projectId !== projectId || !flow?.test || flow.connection_id !== connectionId) {
        throw KnownErrors.SCHEMA_ERROR({ message: "No such test of this connection." });
      }
      return {
        id: testId,
        connection_id: connectionId,
        ...(flow.test_result ?? { status: "pending", subject: null, attributes: null, error: null }),
      };
    },

    async authorize(
      project: Project,
      input: AuthorizeInput,
    ): Promise<{ location: string; connectionId: string }> {
      for (const url of [input.redirect_uri, input.error_redirect_uri, input.after_callback_redirect_url]) {
        assertTrustedUrl(project.config, url);
      }
      const connection = await resolveConnection(project, input);
      const verifier = randomBytes(32).toString("base64url");
      const nonce = randomBytes(24).toString("base64url");
      const samlRequestId = `_${randomBytes(20).toString("hex")}`;
      const data: SsoFlowData = {
        connection_id: connection.id,
        redirect_uri: input.redirect_uri,
        error_redirect_uri: input.error_redirect_uri ?? null,
        after_callback_redirect_url: input.after_callback_redirect_url ?? null,
        client_state: input.state,
        code_challenge: input.code_challenge,
        sealed_verifier: deps.box.seal(verifier),
        nonce,
        ...(connection.protocol === "saml" ? { saml_request_id: samlRequestId } : {}),
      };
      const { code: state } = await inTransaction(deps.db, (tx) =>
        deps.codes.create(tx, { projectId: project.id, purpose: "sso_flow", data }),
      );
      if (connection.protocol === "saml") {
        const settings = connection.settings as SamlSettings;
        const location = await deps.saml.authorizationUrl(connection.id, settings, samlRequestId, state);
        return { location, connectionId: connection.id };
      }
      const location = await deps.oidc.authorizationUrl(connection.id, connection.settings as OidcSettings, {
        redirectUri: ssoUrls(deps.baseUrl, connection.id).oidcCallback,
        state,
        nonce,
        codeVerifier: verifier,
      });
      return { location, connectionId: connection.id };
    },

    /** The OIDC callback: the URL the browser goes to next. */
    async oidcCallback(connectionId: string, callbackUrl: URL): Promise<string> {
      const state = callbackUrl.searchParams.get("state") ?? "";
      const { project, flow, codeId } = await consume(connectionId, state);
      const end = flow.test
        ? (identify: (c: SsoConnectionRow) => Promise<Identified>) =>
            finishTest(flow, codeId, state, connectionId, identify)
        : (identify: (c: SsoConnectionRow) => Promise<Identified>) =>
            finish(project, flow, connectionId, identify);
      return end(async (connection) => {
        if (connection.protocol !== "oidc")
          throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: connectionId });
        // The callback URL as registered (our public base), whatever host the request came through.
        const registered = new URL(ssoUrls(deps.baseUrl, connectionId).oidcCallback);
        registered.search = callbackUrl.search;
        const claims: IdentityClaims = await deps.oidc.finish(
          connectionId,
          connection.settings as OidcSettings,
          {
            callbackUrl: registered,
            state,
            nonce: flow.nonce,
            codeVerifier: deps.box.open(flow.sealed_verifier),
          },
        );
        return { subject: claims.sub, attributes: claims };
      });
    },

    /** The SAML ACS: an answer to our request (RelayState is a pending flow), or an IdP-initiated response. */
    async samlAcs(
      connectionId: string,
      form: { SAMLResponse?: string; RelayState?: string },
    ): Promise<string> {
      const samlResponse = form.SAMLResponse ?? "";
      if (!samlResponse) throw KnownErrors.SCHEMA_ERROR({ message: "SAMLResponse is required." });
      const relayState = form.RelayState ?? "";
      const pending =
        relayState.length < 100 && relayState ? await deps.codes.find("sso_flow", relayState) : undefined;
      if (!pending) return idpInitiated(connectionId, samlResponse, relayState);
      const { project, flow, codeId } = await consume(connectionId, relayState);
      const end = flow.test
        ? (identify: (c: SsoConnectionRow) => Promise<Identified>) =>
            finishTest(flow, codeId, relayState, connectionId, identify)
        : (identify: (c: SsoConnectionRow) => Promise<Identified>) =>
            finish(project, flow, connectionId, identify);
      return end(async (connection) => {
        if (connection.protocol !== "saml")
          throw KnownErrors.SSO_CONNECTION_NOT_FOUND({ connection_id: connectionId });
        const assertion = await deps.saml.validate(
          connectionId,
          connection.settings as SamlSettings,
          samlResponse,
        );
        // Bound to the request this browser's flow sent: a response captured elsewhere does not fit another flow.
        if (!flow.saml_request_id || assertion.inResponseTo !== flow.saml_request_id) {
          throw invalid(connectionId, "The response does not answer this sign-in's request.");
        }
        return { subject: assertion.subject, attributes: assertion.attributes, assertion };
      });
    },

    /** Our SP metadata for a SAML connection (public: identity providers fetch it). */
    async samlMetadata(connectionId: string): Promise<string> {
      const connection = await deps.withEncryptionKey((await samlConnection(connectionId)).connection);
      return deps.saml.metadata(connectionId, connection.settings as SamlSettings);
    },
  };
}

export type SsoFlow = ReturnType<typeof createSsoFlow>;
