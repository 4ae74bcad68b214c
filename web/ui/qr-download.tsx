// A link's QR code with a button that saves it as a PNG file named after the link.
import { useState } from "preact/hooks";
import type { Link } from "./api";

/** What the QR code needs of a link: a new one (POST /shorten's answer) or a stored one. */
type QrLink = Pick<Link, "code" | "shortUrl" | "qrCodeUrl">;
import { FormError } from "./field";

/**
 * saveQr fetches the image (it is public; no token goes with it, since the bucket may be on another
 * origin) and hands the browser a local copy, as a `download` link to another origin would only open it.
 */
async function saveQr(link: QrLink): Promise<void> {
  const res = await fetch(link.qrCodeUrl);
  if (!res.ok) throw new Error(`the QR code could not be fetched (status ${res.status})`);
  const href = URL.createObjectURL(await res.blob());
  const a = Object.assign(document.createElement("a"), { href, download: `qr-${link.code}.png` });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

export function QrCode({ link }: { link: QrLink }) {
  const [error, setError] = useState<string | null>(null);
  const save = () => {
    setError(null);
    saveQr(link).catch((err: Error) => setError(`Download failed: ${err.message}.`));
  };
  return (
    <figure class="qr-box">
      <img class="qr" src={link.qrCodeUrl} width={160} height={160} alt={`QR code for ${link.shortUrl}`} />
      <figcaption>
        <button type="button" class="secondary" onClick={save}>
          Download PNG
        </button>
        <FormError message={error} />
      </figcaption>
    </figure>
  );
}
