/** `ferry order-id`: the protocol orderId of a quote's orderData. */
import { getOrderId } from "../../core/orderId.ts";
import { EXIT, printResult, readJsonInput } from "../cliIo.ts";
import type { CommandGroup } from "../commandGroup.ts";
import { parseCommandArgs } from "../parseCommandArgs.ts";

const HELP = `Usage: ferry order-id [--json] <orderData.json|->

Prints the protocol orderId (EIP-712 hashStruct(Order), no domain) of a quote's
protocol.v2.orderData. The file holds either the orderData object or a whole quote.
Every chain is treated as EVM. - reads stdin.
`;

/** A quote carries the order under protocol.v2.orderData; anything else is taken as the orderData. */
function orderDataOf(document: unknown): unknown {
  const v2 = (document as { protocol?: { v2?: { orderData?: unknown } } } | null)?.protocol?.v2;
  return v2 !== undefined && v2 !== null && typeof v2 === "object" && "orderData" in v2 ? v2.orderData : document;
}

export const orderId: CommandGroup = {
  help: HELP,
  run: async (args, io, globals) => {
    const parsed = parseCommandArgs(args, {}, { min: 1, max: 1 });
    if (parsed.help) {
      io.stdout(HELP);
      return EXIT.OK;
    }
    const id = getOrderId(orderDataOf(await readJsonInput(io, parsed.positionals[0]!)));
    printResult(io, parsed.json || globals.json, id, { orderId: id });
    return EXIT.OK;
  },
};
