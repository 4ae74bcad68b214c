// The chosen workspace's team: make a workspace, its members and their roles, invitations (the link
// shown once), accepting one; for owners and admins its API keys and audit log.
import { useState } from "preact/hooks";
import { ApiError, call } from "./api";
import { AuditSection } from "./audit-section";
import { CopyButton } from "./copy-button";
import { formatDate } from "./dates";
import { Field, FormError } from "./field";
import { KeysSection } from "./keys-section";
import { RowAction } from "./row-action";
import { useSession } from "./session";
import { TableHead } from "./table-head";
import { useLoad } from "./use-load";
import { chooseWorkspace, reloadWorkspaces, useWorkspaces, type Workspace } from "./workspace";
import { allows, atLeast, ROLES, type Role } from "../../url/roles";
import { usePageTitle } from "./page-title";

/** A member as GET /workspaces/:id/members lists it (url/members.ts). */
interface Member {
  userId: string;
  email: string | null;
  role: Role;
  joinedAt: string;
}

const message = (err: unknown) => (err instanceof ApiError ? err.message : String(err));
/** Whether `role` may remove a member with `theirs`: an owner anyone, an admin members and viewers (url/members.ts). */
const mayRemove = (role: Role, theirs: Role) =>
  allows(role, "members.role") || (allows(role, "members.remove") && !atLeast(theirs, "admin"));

function NewWorkspace() {
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      const made = await call<{ id: string }>("POST", "/workspaces", { name });
      setName("");
      await reloadWorkspaces();
      chooseWorkspace(made.id);
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <form class="card inline-form" onSubmit={create} aria-label="New workspace">
      <Field label="New workspace name" name="workspace-name" value={name} onValue={setName} required />
      <FormError message={error} />
      <button type="submit">Create workspace</button>
    </form>
  );
}

function AcceptInvite() {
  const [token, setToken] = useState("");
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const accept = async (e: Event) => {
    e.preventDefault();
    setError(null);
    setStatus(null);
    try {
      const joined = await call<{ workspaceId: string; name: string; role: Role }>(
        "POST",
        `/invites/${encodeURIComponent(token.trim())}/accept`,
        {},
      );
      setToken("");
      setStatus(`You joined ${joined.name} as ${joined.role}.`);
      await reloadWorkspaces();
      chooseWorkspace(joined.workspaceId);
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <form class="card inline-form" onSubmit={accept} aria-label="Accept an invitation">
      <Field label="Invitation token" name="invite-token" value={token} onValue={setToken} required />
      <FormError message={error} />
      <button type="submit">Accept invitation</button>
      {status && <p role="status">{status}</p>}
    </form>
  );
}

function Invite({ workspace }: { workspace: Workspace }) {
  const [role, setRole] = useState<Role>("member");
  const [invite, setInvite] = useState<{ token: string; expiresAt: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setInvite(await call<{ token: string; expiresAt: string }>("POST", `/workspaces/${workspace.id}/invites`, { role }));
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <form class="card" onSubmit={create} aria-label="Invite someone">
      <h2>Invite someone</h2>
      <div class="actions">
        <label class="check">
          Role{" "}
          <select value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            {ROLES.filter((r) => r !== "owner").map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        </label>
        <button type="submit">Create invitation</button>
      </div>
      <FormError message={error} />
      {invite && (
        <div class="notice" role="status">
          <p>
            <strong>Send this token now: it is shown only this once</strong> and works once, until {formatDate(invite.expiresAt)}. They
            accept it on this page.
          </p>
          <p class="row">
            <code class="secret">{invite.token}</code> <CopyButton text={invite.token} />
          </p>
        </div>
      )}
    </form>
  );
}

function Members({ workspace }: { workspace: Workspace }) {
  const session = useSession();
  const [reload, setReload] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const loaded = useLoad(() => call<{ members: Member[] }>("GET", `/workspaces/${workspace.id}/members`), `${workspace.id}-${reload}`);
  const change = async (member: Member, role: Role | null) => {
    setError(null);
    try {
      const path = `/workspaces/${workspace.id}/members/${encodeURIComponent(member.userId)}`;
      await (role === null ? call("DELETE", path) : call("PATCH", path, { role }));
      if (role === null && member.email === session?.email) {
        await reloadWorkspaces();
        return;
      }
      setReload((n) => n + 1);
    } catch (err) {
      setError(message(err));
    }
  };
  return (
    <section aria-labelledby="members-title">
      <h2 id="members-title">Members</h2>
      <FormError message={error} />
      {loaded.state === "loading" && <p class="muted">Loading…</p>}
      {loaded.state === "error" && <p class="error">{loaded.message}</p>}
      {loaded.state === "ready" && (
        <table class="grid members">
          <TableHead columns={["Member", "Role", "Joined"]} actions />
          <tbody>
            {loaded.data.members.map((m) => {
              const me = m.email === session?.email;
              const label = m.email ?? "(deleted account)";
              return (
                <tr key={m.userId}>
                  <td>
                    {label}
                    {me && <span class="muted"> (you)</span>}
                  </td>
                  <td data-label="Role">
                    {allows(workspace.role, "members.role") ? (
                      <select aria-label={`Role of ${label}`} value={m.role} onChange={(e) => change(m, e.currentTarget.value as Role)}>
                        {ROLES.map((r) => (
                          <option key={r}>{r}</option>
                        ))}
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  <td data-label="Joined">{formatDate(m.joinedAt)}</td>
                  <RowAction
                    label={me ? "Leave" : "Remove"}
                    onClick={me || mayRemove(workspace.role, m.role) ? () => change(m, null) : undefined}
                  />
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

export function TeamPage() {
  usePageTitle("Team");
  const { list, current } = useWorkspaces();
  return (
    <section aria-labelledby="team-title">
      <h1 id="team-title" tabIndex={-1}>
        Team{current && `: ${current.name}`}
      </h1>
      <p class="lead">Pick the workspace in the header. Its links, members, API keys and audit log are here.</p>
      <div class="team-forms">
        <NewWorkspace />
        <AcceptInvite />
      </div>
      {list.length === 0 && <p class="muted">Loading…</p>}
      {current && (
        <>
          {current.personal && <p class="muted">This is your personal workspace: create a shared one to invite others.</p>}
          <Members workspace={current} />
          {allows(current.role, "members.invite") && !current.personal && <Invite workspace={current} />}
          {allows(current.role, "keys.manage") && <KeysSection key={`keys-${current.id}`} workspace={current} />}
          {allows(current.role, "audit.read") && <AuditSection key={`audit-${current.id}`} workspace={current} />}
        </>
      )}
    </section>
  );
}
