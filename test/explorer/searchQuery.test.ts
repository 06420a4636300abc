/** searchQuery: what the explorer's search box holds and the GET /requests/v2 queries it makes (pure). */
import { expect } from "chai";
import { parseSearchQuery, searchPaths } from "../../ts/explorer/searchQuery.ts";

describe("explorer: searchQuery", () => {
  const id = `0x${"Ab".repeat(32)}`;
  const user = "0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65";

  it("reads a 32-byte value as a request id or a transaction hash, lowercased, and asks for both", () => {
    const query = parseSearchQuery(`  ${id} `);
    expect(query).to.deep.equal({ kind: "idOrHash", value: id.toLowerCase() });
    expect(searchPaths(query)).to.deep.equal([`/requests/v2?id=${id.toLowerCase()}&limit=20`, `/requests/v2?hash=${id.toLowerCase()}&limit=20`]);
  });

  it("reads an address as a user, its case kept (the service checks the checksum)", () => {
    const query = parseSearchQuery(user);
    expect(query).to.deep.equal({ kind: "user", value: user });
    expect(searchPaths(query)).to.deep.equal([`/requests/v2?user=${user}&limit=20`]);
  });

  it("asks nothing for an empty box or nonsense, and says why for nonsense", () => {
    expect(parseSearchQuery("  ")).to.deep.equal({ kind: "empty" });
    expect(parseSearchQuery(null)).to.deep.equal({ kind: "empty" });
    for (const bad of ["hello", "0x1234", `${id}00`, `0x${"g".repeat(64)}`, "/requests/v2?id=x&apiKey=y"]) {
      const query = parseSearchQuery(bad);
      expect(query.kind, bad).to.equal("invalid");
      expect(searchPaths(query)).to.deep.equal([]);
    }
  });
});
