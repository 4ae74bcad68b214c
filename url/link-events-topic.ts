// The link-events topic: every change to a link and every click, as the url service committed them.
// The webhooks service subscribes; the events leave the url database through its outbox (url/link-events.ts).
import { Topic } from "encore.dev/pubsub";

/** LinkEventType names what happened to a link; webhooks subscribe to these names. */
export type LinkEventType = "link.created" | "link.updated" | "link.deleted" | "link.clicked";

/** LinkSnapshot is a link as an event reports it: after the change, or before a deletion. */
export interface LinkSnapshot {
  code: string;
  shortUrl: string;
  url: string;
  createdAt: Date;
  expiresAt: Date | null;
}

/** ClickGroup is `count` clicks of one link in one batch that recorded the same things. */
export interface ClickGroup {
  /** The group's place in its batch (from 0): with the event id and the click's place, what names a click. */
  seq: number;
  code: string;
  shortUrl: string;
  /** The link's workspace (matches webhooks; never sent to a receiver). */
  owner: string;
  count: number;
  country: string;
  device: string;
  browser: string;
  os: string;
  /** The Referer's host, "" for none. */
  referrer: string;
  source: string;
  campaign: string;
}

/** LinkEvent is one outbox row: a link change, or (part of) one click batch. */
export interface LinkEvent {
  /** The outbox row's event id: the same however often the row is published. */
  id: string;
  type: LinkEventType;
  occurredAt: Date;
  /** A link change's workspace; absent for clicks, whose groups name theirs. */
  owner?: string;
  link?: LinkSnapshot;
  clicks?: ClickGroup[];
}

/** linkEvents carries link changes and clicks to the webhooks service. */
export const linkEvents = new Topic<LinkEvent>("link-events", {
  deliveryGuarantee: "at-least-once",
});
