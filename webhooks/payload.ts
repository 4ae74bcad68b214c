// What a receiver gets for a link event: Standard Webhooks' {type, timestamp, data}, one request per
// event. A click batch becomes one event per click, each with its own id derived from the batch's.
import type { ClickGroup, LinkEvent } from "../url/link-events-topic";

/** The events a webhook can subscribe to. */
export const EVENT_TYPES = ["link.created", "link.updated", "link.deleted", "link.clicked"] as const;

/** OwedEvent is one event for one owner's webhooks: its id, type and the body every attempt sends. */
export interface OwedEvent {
  owner: string;
  eventId: string;
  type: string;
  body: string;
}

/** The event id of a link event: the outbox row's UUID, without dashes. */
function baseId(event: LinkEvent): string {
  return `evt_${event.id.replaceAll("-", "")}`;
}

function clickData(group: ClickGroup, clickedAt: Date) {
  const { code, shortUrl, country, device, browser, os, referrer, source, campaign } = group;
  return { code, shortUrl, clickedAt, country, device, browser, os, referrer, source, campaign };
}

/** owedEvents lists the receiver events one link event stands for, with whose webhooks they are for. */
export function owedEvents(event: LinkEvent): OwedEvent[] {
  const timestamp = event.occurredAt;
  if (event.link !== undefined && event.owner !== undefined) {
    const body = JSON.stringify({ type: event.type, timestamp, data: event.link });
    return [{ owner: event.owner, eventId: baseId(event), type: event.type, body }];
  }
  const owed: OwedEvent[] = [];
  for (const group of event.clicks ?? []) {
    const data = clickData(group, timestamp);
    for (let i = 0; i < group.count; i++) {
      const body = JSON.stringify({ type: event.type, timestamp, data });
      owed.push({ owner: group.owner, eventId: `${baseId(event)}_${group.seq}_${i}`, type: event.type, body });
    }
  }
  return owed;
}
