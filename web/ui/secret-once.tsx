// The box that shows a new secret (an API key, a webhook's signing secret) the only time it can be read.
import { CopyButton } from "./copy-button";

interface SecretOnceProps {
  /** What the secret is, as the sentence "Copy {what} now" names it. */
  what: string;
  secret: string;
  testId?: string;
}

export function SecretOnce({ what, secret, testId }: SecretOnceProps) {
  return (
    <div class="card notice" role="status">
      <p>
        <strong>Copy {what} now: it is shown only this once.</strong>
      </p>
      <p class="row">
        <code class="secret" data-testid={testId}>
          {secret}
        </code>{" "}
        <CopyButton text={secret} />
      </p>
    </div>
  );
}
