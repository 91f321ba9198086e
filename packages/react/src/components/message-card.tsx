// <MessageCard> and <UserAvatar>: Stack's small building blocks, made of our bricks (a page card with up to two
// actions; the avatar with the user's picture or initials).
import type { ReactNode } from "react";
import { Avatar, Button, FullPageContext, PageCard, Root } from "../ui/primitives.tsx";

export type MessageCardProps = {
  title: string;
  children?: ReactNode;
  fullPage?: boolean;
  primaryButtonText?: string;
  primaryAction?: () => Promise<void> | void;
  secondaryButtonText?: string;
  secondaryAction?: () => Promise<void> | void;
};

export function MessageCard({ fullPage = false, ...props }: MessageCardProps) {
  const { title, children, primaryButtonText, primaryAction, secondaryButtonText, secondaryAction } = props;
  return (
    <FullPageContext value={fullPage}>
      <PageCard title={title}>
        {children}
        {(primaryButtonText || secondaryButtonText) && (
          <div className="gh-row">
            {secondaryButtonText && (
              <Button variant="secondary" onClick={() => void secondaryAction?.()}>
                {secondaryButtonText}
              </Button>
            )}
            {primaryButtonText && <Button onClick={() => void primaryAction?.()}>{primaryButtonText}</Button>}
          </div>
        )}
      </PageCard>
    </FullPageContext>
  );
}

export type UserAvatarProps = {
  size?: number;
  user?: {
    profileImageUrl?: string | null;
    displayName?: string | null;
    primaryEmail?: string | null;
  } | null;
  border?: boolean;
};

export function UserAvatar({ size = 34, user, border = false }: UserAvatarProps) {
  return (
    <Root>
      <span
        style={{ display: "inline-flex", borderRadius: "50%", boxShadow: border ? "0 0 0 1px" : undefined }}
      >
        <Avatar
          name={user?.displayName ?? user?.primaryEmail ?? ""}
          imageUrl={user?.profileImageUrl}
          size={size}
        />
      </span>
    </Root>
  );
}
