// A block's time from the shared head when it saw that very block, read otherwise (ts/service/chains/blockTime.ts).
import { expect } from "chai";
import { blockTime } from "../../../ts/service/chains/blockTime.ts";
import type { ChainClient } from "../../../ts/service/chains/chainClients.ts";
import type { HeadBlock } from "../../../ts/service/chains/chainHead.ts";
import { canonicalHex } from "../../../ts/service/model/values.ts";

const hash = (n: number) => canonicalHex(`0x${n.toString(16).padStart(64, "0")}`);

function fakeClient(seen: HeadBlock[]) {
  const reads: bigint[] = [];
  const client = {
    head: { recent: (number: bigint) => seen.find((b) => b.number === number) },
    publicClient: {
      getBlock: async ({ blockNumber }: { blockNumber: bigint }) => {
        reads.push(blockNumber);
        return { timestamp: 1_000n + blockNumber };
      },
    },
  } as unknown as Pick<ChainClient, "head" | "publicClient">;
  return { client, reads };
}

describe("chains: a block's time", () => {
  const seen: HeadBlock = { number: 7n, hash: hash(7), parentHash: hash(6), timestamp: 555n, baseFeePerGas: null };

  it("isTheSharedHeads_whenItSawThatBlock_withoutARead", async () => {
    const { client, reads } = fakeClient([seen]);
    expect(await blockTime(client, 7n, hash(7))).to.equal(555n);
    expect(reads).to.deep.equal([]);
  });

  it("isRead_whenTheHeadSawAnotherBlockAtThatNumber_orNone", async () => {
    const { client, reads } = fakeClient([seen]);
    expect(await blockTime(client, 7n, hash(70)), "reorged since the head saw it").to.equal(1_007n);
    expect(await blockTime(client, 8n, hash(8)), "never seen").to.equal(1_008n);
    expect(reads).to.deep.equal([7n, 8n]);
  });
});
