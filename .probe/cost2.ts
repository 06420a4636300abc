import { Compile } from "typebox/compile";
import { QuoteBody } from "../ts/service/http/routes/quote.ts";
import { reportable } from "../ts/service/http/validatorCompiler.ts";
import sjson from "secure-json-parse";
const obj: Record<string, number> = {};
for (let i = 0; i < 90_000; i++) obj["k" + i] = 1;
const keys = JSON.stringify(obj);
const v = Compile(QuoteBody);
for (let r = 0; r < 3; r++) {
  let t = performance.now(); const parsed = JSON.parse(keys); const tp = performance.now() - t;
  t = performance.now(); sjson.parse(keys); const ts = performance.now() - t;
  t = performance.now(); v.Check(parsed); const tc = performance.now() - t;
  t = performance.now(); const pr = reportable(QuoteBody as never, parsed); const tr = performance.now() - t;
  t = performance.now(); const e = v.Errors(pr); const te = performance.now() - t;
  console.log({ tp, ts, tc, tr, te, n: e.length });
}
