// A closed PGlite instance's WebAssembly memory (about 20 MiB resident) is freed only when the garbage
// collector finds it unreachable, and an idle process allocates too little to start a collection for
// hours. So closing an idle instance asks for one, through V8's `gc` extension, which a new context
// gets once the flag is set (as jest-leak-detector does); the app's own global scope never sees `gc`.
// That collection is also where V8 gives back the young generation start-up grew: it shrinks it at a
// collection when the allocation since the one before was slow (measured: 32 MiB to 1 MiB).
import v8 from "node:v8";
import vm from "node:vm";

let collect: (() => void) | null = null;
let pending: NodeJS.Timeout | null = null;

/** Collects garbage soon; closings close together share one collection. */
export function releaseWasmMemory(): void {
  if (pending) return;
  pending = setTimeout(() => {
    pending = null;
    if (collect === null) {
      v8.setFlagsFromString("--expose-gc");
      collect = vm.runInNewContext("gc") as () => void;
    }
    collect();
  }, 1000);
  pending.unref();
}
