// Tags: short lower-case labels on links, to filter GET /urls and to count in GET /tags.
import { api, APIError, type Query } from "encore.dev/api";
import type { MatchesRegexp, MaxLen, MinLen } from "encore.dev/validate";
import { currentActor, workspaceAccess } from "./access";
import { db } from "./db";
import { tagProblem, tagsProblem } from "./link-rules";

/** Tag is one tag in a request type. */
export type Tag = string & MinLen<1> & MaxLen<32> & MatchesRegexp<"^[A-Za-z0-9_-]+$">;

/** validateTag returns a tag lower-cased, or throws invalid_argument naming `field`. */
export function validateTag(tag: string, field = "tags"): string {
  const problem = tagProblem(tag, field);
  if (problem !== null) throw APIError.invalidArgument(problem);
  return tag.toLowerCase();
}

/** validateTags returns the tags lower-cased, each once, in the order given; at most 10. */
export function validateTags(tags: readonly string[]): string[] {
  const problem = tagsProblem(tags);
  if (problem !== null) throw APIError.invalidArgument(problem);
  return [...new Set(tags.map((t) => t.toLowerCase()))];
}

/** ListTagsRequest picks the workspace. */
export interface ListTagsRequest {
  /** The workspace whose links to count; default: the caller's personal one. */
  workspaceId?: Query<string>;
}

/** TagCount is one tag and how many of the workspace's links carry it. */
export interface TagCount {
  name: string;
  links: number;
}

/** ListTagsResponse is every tag on the workspace's links, by name. */
export interface ListTagsResponse {
  tags: TagCount[];
}

/** listTags counts a workspace's links per tag, so a client can offer them as filters; any member may. */
export const listTags = api(
  { expose: true, auth: true, method: "GET", path: "/tags" },
  async ({ workspaceId }: ListTagsRequest): Promise<ListTagsResponse> => {
    const { workspaceId: id } = await workspaceAccess(currentActor(), workspaceId, "link.read");
    const tags = await db.queryAll<TagCount>`
      SELECT tag AS name, count(*)::int AS links FROM urls, unnest(tags) AS tag
      WHERE workspace_id = ${id}::text::bigint GROUP BY tag ORDER BY tag
    `;
    return { tags };
  },
);
