import { expect } from "chai";
import { encodeAbiParameters, encodeEventTopics, keccak256, parseAbiItem, toHex, type Hex } from "viem";
import { decodeLog } from "../../../ts/service/chains/decodeLog.ts";

describe("decodeLog", () => {
  const MOVED = parseAbiItem("event Moved(address indexed from, bytes32 indexed id, address to, uint256 amount)");
  const OTHER = parseAbiItem("event Other(uint256 value)");
  const FROM = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
  const TO = "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC";
  const ID = keccak256(toHex("ferry"));
  const EMITTER = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
  const log = (topics: Hex[], data: Hex) => ({ address: EMITTER as Hex, topics: topics as [Hex, ...Hex[]], data });
  const moved = log(encodeEventTopics({ abi: [MOVED], eventName: "Moved", args: { from: FROM, id: ID } }) as Hex[], encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [TO, 5n]));

  it("decodes the event's arguments canonical, with the emitter", () => {
    expect(decodeLog([MOVED], moved)).to.deep.equal({ from: FROM.toLowerCase(), id: ID, to: TO.toLowerCase(), amount: 5n, emitter: EMITTER.toLowerCase() });
  });

  it("is undefined for a log of another event or a malformed one", () => {
    expect(decodeLog([OTHER], moved)).to.equal(undefined);
    expect(decodeLog([MOVED], { ...moved, data: "0x01" })).to.equal(undefined);
  });
});
