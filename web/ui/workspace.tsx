// The workspace the pages work in: picked in the header, remembered in localStorage, and sent as
// `workspaceId` to the links, shorten, tags, import and export calls.
import { useEffect, useState } from "preact/hooks";
import { call } from "./api";
import { useSession } from "./session";
import type { Role } from "../../url/roles";

/** One of the caller's workspaces, as GET /workspaces lists it (url/workspaces.ts). */
export interface Workspace {
  id: string;
  name: string;
  role: Role;
  personal: boolean;
}

const KEY = "shortener.workspace";
const listeners = new Set<() => void>();
let workspaces: Workspace[] = [];

/** The chosen workspace's ID, or undefined for the personal one (the API's default). */
export function workspaceId(): string | undefined {
  const id = localStorage.getItem(KEY) ?? undefined;
  return workspaces.length === 0 || workspaces.some((w) => w.id === id) ? id : undefined;
}

/** The chosen workspace, once the list has loaded. */
export function currentWorkspace(): Workspace | undefined {
  const id = workspaceId();
  return workspaces.find((w) => (id === undefined ? w.personal : w.id === id));
}

export function chooseWorkspace(id: string): void {
  localStorage.setItem(KEY, id);
  for (const l of listeners) l();
}

/** Loads the caller's workspaces again (after creating or joining one). */
export async function reloadWorkspaces(): Promise<void> {
  workspaces = (await call<{ workspaces: Workspace[] }>("GET", "/workspaces")).workspaces;
  for (const l of listeners) l();
}

/** `path` with the chosen workspace added to its query. */
export function inWorkspace(path: string): string {
  const id = workspaceId();
  if (id === undefined) return path;
  return `${path}${path.includes("?") ? "&" : "?"}workspaceId=${encodeURIComponent(id)}`;
}

/** Re-renders the caller when the list or the choice changes. */
export function useWorkspaces(): { list: Workspace[]; current: Workspace | undefined } {
  const [, tick] = useState(0);
  useEffect(() => {
    const l = () => tick((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  return { list: workspaces, current: currentWorkspace() };
}

/** The header's workspace picker, which loads the list for every page once signed in. */
export function WorkspaceSwitcher() {
  const session = useSession();
  const { list, current } = useWorkspaces();
  useEffect(() => {
    workspaces = [];
    if (session) reloadWorkspaces().catch(() => undefined);
  }, [session?.email]);
  if (list.length === 0) return null;
  return (
    <span class="switcher">
      <label for="workspace-switcher">Workspace</label>
      <select id="workspace-switcher" value={current?.id} onChange={(e) => chooseWorkspace(e.currentTarget.value)}>
        {list.map((w) => (
          <option key={w.id} value={w.id}>
            {w.personal ? w.name : `${w.name} (${w.role})`}
          </option>
        ))}
      </select>
    </span>
  );
}
