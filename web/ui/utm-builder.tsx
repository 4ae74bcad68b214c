// The UTM builder: five campaign fields and a live preview of the final URL, merged by the very code the
// url service stores it with (url/utm-merge.ts).
import { mergeUtm, UTM_FIELDS, type UtmValues } from "../../url/utm-merge";
import { Field } from "./field";

const LABELS: Record<(typeof UTM_FIELDS)[number], string> = {
  source: "Source",
  medium: "Medium",
  campaign: "Campaign",
  term: "Term",
  content: "Content",
};

/** previewUrl is what the link will point at, or null while `url` is not yet an absolute URL. */
export function previewUrl(url: string, utm: UtmValues): string | null {
  const text = url.trim();
  if (!URL.canParse(text)) return null;
  return mergeUtm(new URL(text).href, utm);
}

export function UtmBuilder({ url, utm, onUtm, error }: { url: string; utm: UtmValues; onUtm: (u: UtmValues) => void; error?: string }) {
  const preview = previewUrl(url, utm);
  return (
    <fieldset class="utm">
      <legend>Campaign (UTM) parameters</legend>
      <div class="row">
        {UTM_FIELDS.map((f) => (
          <Field
            key={f}
            label={LABELS[f]}
            name={`utm-${f}`}
            value={utm[f] ?? ""}
            onValue={(v) => onUtm({ ...utm, [f]: v })}
            autocomplete="off"
          />
        ))}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="preview">
        Final URL:{" "}
        <output
          for="field-url field-utm-source field-utm-medium field-utm-campaign field-utm-term field-utm-content"
          data-testid="utm-preview"
        >
          {preview ?? "enter a long URL above"}
        </output>
      </p>
    </fieldset>
  );
}
