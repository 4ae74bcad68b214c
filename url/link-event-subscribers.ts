// Which workspaces' link events are queued (migration 014's link_event_subscribers): the webhooks
// service subscribes a workspace before it stores the workspace's first webhook.
import { api } from "encore.dev/api";
import { checkWorkspaceId } from "./access";
import { db } from "./db";

/** SubscribeRequest names the workspace. */
export interface SubscribeRequest {
  workspaceId: string;
}

/** subscribeLinkEvents makes the workspace's link changes and clicks queue events from now on; idempotent. */
export const subscribeLinkEvents = api(
  { expose: false, method: "POST", path: "/internal/link-event-subscribers" },
  async ({ workspaceId }: SubscribeRequest): Promise<void> => {
    checkWorkspaceId(workspaceId);
    await db.exec`INSERT INTO link_event_subscribers (workspace_id) VALUES (${workspaceId}::text::bigint) ON CONFLICT DO NOTHING`;
  },
);
