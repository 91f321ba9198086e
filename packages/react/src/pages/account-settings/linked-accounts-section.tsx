// Linked accounts: the provider accounts (GitHub, Google, …) the user signs in with, each with the provider's mark,
// the account's e-mail and Unlink (confirmed). The one remaining way to sign in cannot be unlinked, or the person
// would lock themselves out: that account says so instead.
import type { CurrentUser } from "@gatehouse/sdk";
import { providerDisplayName } from "../../components/oauth-button.tsx";
import { ProviderIcon } from "../../components/provider-icons.tsx";
import { useOAuthProviders } from "../../hooks.ts";
import { useTranslation } from "../../i18n.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Muted, Section } from "../../ui/primitives.tsx";
import { useAction } from "../../ui/use-action.ts";

export function LinkedAccountsSection({ user }: { user: CurrentUser }) {
  const t = useTranslation();
  const accounts = useOAuthProviders();
  const signInAccounts = accounts.filter((account) => account.allowSignIn).length;
  const otherWays = user.hasPassword || user.passkeyAuthEnabled;
  return (
    <Section title={t("polish.linked.title")}>
      {accounts.length === 0 ? (
        <Muted>{t("polish.linked.none")}</Muted>
      ) : (
        <ul className="gh-list">
          {accounts.map((account) => (
            <LinkedAccount
              key={account.id}
              account={account}
              onlyWay={account.allowSignIn && signInAccounts === 1 && !otherWays}
            />
          ))}
        </ul>
      )}
    </Section>
  );
}

function LinkedAccount({
  account,
  onlyWay,
}: {
  account: ReturnType<typeof useOAuthProviders>[number];
  onlyWay: boolean;
}) {
  const t = useTranslation();
  const name = providerDisplayName(account.type);
  const unlink = useAction(() => account.delete());
  return (
    <li className="gh-list-item">
      <span className="gh-row">
        <ProviderIcon provider={account.type} />
        <span className="gh-text">{name}</span>
        {account.email && <span className="gh-muted">{account.email}</span>}
        {!account.allowSignIn && <span className="gh-badge">{t("polish.linked.signInOff")}</span>}
      </span>
      {onlyWay ? (
        <Muted>{t("polish.linked.onlyWay")}</Muted>
      ) : (
        <ConfirmButton
          label={t("polish.linked.unlink")}
          question={t("polish.linked.unlinkQuestion", { provider: name })}
          pending={unlink.pending}
          error={unlink.error}
          onConfirm={unlink.run}
        />
      )}
    </li>
  );
}
