// The short link as its owner sees it: GET /urls lists them, PATCH /urls/:code answers one. It
// imports nothing, so that the web pages read their Link type from here (web/ui/api.tsx) rather than
// keep a copy that could drift.

/** Creator is who made a link: a user, labelled with its email (null once the account is gone). */
export interface Creator {
  type: "user";
  id: string;
  label: string | null;
}

/** Link is a short link of one of the caller's workspaces. */
export interface Link {
  code: string;
  /** The workspace that owns the link. */
  workspaceId: string;
  creator: Creator;
  shortUrl: string;
  qrCodeUrl: string;
  originalUrl: string;
  clicks: number;
  createdAt: Date;
  /** When the link stops resolving; null when it never does. */
  expiresAt: Date | null;
  /** When the link was last followed; null when never (or only before click history existed). */
  lastClickedAt: Date | null;
  /** Whether visitors must give a password (the password itself is never shown). */
  hasPassword: boolean;
  /** How many clicks the link sends on before it stops; null when unlimited. */
  maxClicks: number | null;
  /** Lower-case labels, in the order given. */
  tags: string[];
  /** Where iPhone and iPad visitors go; null when to originalUrl. */
  iosUrl: string | null;
  /** Where Android visitors go; null when to originalUrl. */
  androidUrl: string | null;
  /** Disabled by the site's admins (for abuse): it leads nowhere, and only they can enable it again. */
  disabled: boolean;
  /** Why it was disabled; null when it is not. */
  disabledReason: string | null;
  /** Marked by the site's admins: browsers see a warning before they go on. */
  flagged: boolean;
}
