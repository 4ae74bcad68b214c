// Webhooks: add an endpoint for link events, copy its signing secret (shown once), send a test, see
// every delivery attempt with its status, switch it off or on, delete it.
import { useState } from "preact/hooks";
import { ApiError, call, type Json } from "./api";
import { CheckList } from "./check-list";
import { formatDateTime } from "./dates";
import { Field, FormError } from "./field";
import { SecretOnce } from "./secret-once";
import { TableHead } from "./table-head";
import { useLoad } from "./use-load";
import type {
  CreatedWebhook as StoredCreated,
  DeliveryAttempt as StoredAttempt,
  TestDeliveryResponse,
  Webhook as StoredWebhook,
  WebhookEvent,
} from "../../webhooks/webhook-types";
import { usePageTitle } from "./page-title";

type Webhook = Json<StoredWebhook>;
type CreatedWebhook = Json<StoredCreated>;
type DeliveryAttempt = Json<StoredAttempt>;

const EVENTS: WebhookEvent[] = ["link.created", "link.updated", "link.deleted", "link.clicked"];

function Deliveries({ hook }: { hook: Webhook }) {
  const [reload, setReload] = useState(0);
  const [tested, setTested] = useState<string | null>(null);
  const loaded = useLoad(() => call<{ deliveries: DeliveryAttempt[] }>("GET", `/webhooks/${hook.id}/deliveries`), `${hook.id}-${reload}`);
  const test = async () => {
    try {
      const r = await call<TestDeliveryResponse>("POST", `/webhooks/${hook.id}/test`, {});
      setTested(r.delivered ? `Delivered: the receiver answered ${r.statusCode}.` : `Not delivered: ${r.error}.`);
    } catch (err) {
      setTested((err as Error).message);
    }
    setReload((n) => n + 1);
  };
  return (
    <div>
      <div class="actions">
        <button type="button" class="secondary" onClick={test}>
          Send a test event
        </button>
        <span role="status">{tested}</span>
      </div>
      <h3>Deliveries</h3>
      {loaded.state === "loading" && <p class="muted">Loading…</p>}
      {loaded.state === "error" && <p class="error">{loaded.message}</p>}
      {loaded.state === "ready" && loaded.data.deliveries.length === 0 && (
        <p class="muted">Nothing sent yet: events appear here as they are delivered.</p>
      )}
      {loaded.state === "ready" && loaded.data.deliveries.length > 0 && (
        <table class="deliveries">
          <TableHead columns={["When", "Event", "Attempt", "Result", "Time"]} />
          <tbody>
            {loaded.data.deliveries.map((d: DeliveryAttempt) => (
              <tr key={`${d.eventId}-${d.attempt}`} class={`outcome-${d.outcome}`}>
                <td>{formatDateTime(d.attemptedAt)}</td>
                <td>
                  {d.eventType} <span class="muted">{d.eventId}</span>
                </td>
                <td>{d.attempt}</td>
                <td>
                  <strong>{d.outcome}</strong> {d.statusCode ?? d.error}
                </td>
                <td>{d.durationMs} ms</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

export function WebhooksPage() {
  usePageTitle("Webhooks");
  const [reload, setReload] = useState(0);
  const loaded = useLoad(() => call<{ webhooks: Webhook[] }>("GET", "/webhooks"), String(reload));
  const [url, setUrl] = useState("");
  const [events, setEvents] = useState<WebhookEvent[]>(["link.created", "link.clicked"]);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  const create = async (e: Event) => {
    e.preventDefault();
    setError(null);
    try {
      setCreated(await call<CreatedWebhook>("POST", "/webhooks", { url, events }));
      setUrl("");
      setReload((n) => n + 1);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };
  const change = async (hook: Webhook, body: Record<string, unknown> | null) => {
    try {
      await call(body === null ? "DELETE" : "PATCH", `/webhooks/${hook.id}`, body ?? undefined);
      setReload((n) => n + 1);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section aria-labelledby="webhooks-title">
      <h1 id="webhooks-title" tabIndex={-1}>
        Webhooks
      </h1>
      <p class="lead">Each event is POSTed to your URL, signed as Standard Webhooks says, and retried until your receiver answers 2xx.</p>
      <form class="card" onSubmit={create}>
        <Field
          label="Receiver URL"
          name="webhook-url"
          type="url"
          value={url}
          onValue={setUrl}
          required
          placeholder="https://example.com/hooks"
        />
        <CheckList legend="Events" options={EVENTS} chosen={events} onChosen={setEvents} />
        <FormError message={error} />
        <div class="actions">
          <button type="submit">Add webhook</button>
        </div>
      </form>
      {created && <SecretOnce what="the signing secret" secret={created.secret} />}
      {loaded.state === "error" && <p class="error">{loaded.message}</p>}
      {loaded.state === "ready" && loaded.data.webhooks.length === 0 && <p class="muted">No webhooks yet.</p>}
      {loaded.state === "ready" &&
        loaded.data.webhooks.map((hook) => (
          <article class="card" key={hook.id} aria-label={hook.url}>
            <h2 class="hook-url">{hook.url}</h2>
            <p class="muted">
              {hook.events.join(", ")} · {hook.enabled ? "enabled" : "disabled"}
              {hook.failingSince && ` · failing since ${formatDateTime(hook.failingSince)}`}
            </p>
            {hook.disabledReason && <p class="error">{hook.disabledReason}</p>}
            <div class="actions">
              <button
                type="button"
                class="secondary"
                aria-expanded={open === hook.id}
                onClick={() => setOpen(open === hook.id ? null : hook.id)}
              >
                {open === hook.id ? "Hide deliveries" : "Deliveries"}
              </button>
              <button type="button" class="secondary" onClick={() => change(hook, { enabled: !hook.enabled })}>
                {hook.enabled ? "Disable" : "Enable"}
              </button>
              <button type="button" class="danger" onClick={() => change(hook, null)}>
                Delete
              </button>
            </div>
            {open === hook.id && <Deliveries hook={hook} />}
          </article>
        ))}
    </section>
  );
}
