import { Topic } from "encore.dev/pubsub";

/** URLShortenedEvent announces a newly stored short link. */
export interface URLShortenedEvent {
  code: string;
  originalUrl: string;
  timestamp: Date;
}

/** urlShortened carries each new link to its subscribers (analytics counts them per day). */
export const urlShortened = new Topic<URLShortenedEvent>("url-shortened", {
  deliveryGuarantee: "at-least-once",
});
