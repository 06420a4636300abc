/**
 * Fork testing that runs on any machine: a local chain served over JSON-RPC on loopback (as the
 * devnet serves its chains) gets Ferry and a fill; then an in-process Hardhat network forks that
 * server's URL at a block and a fill is replayed on the fork. The fork must see the forked state —
 * the same contracts, the original requestId already filled — and nothing after the fork block, and
 * the origin chain must not see what happens on the fork.
 */
import { expect } from "chai";
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { network } from "hardhat";
import type { JsonRpcServer, NetworkConnection } from "hardhat/types/network";
import { getAddress, keccak256, parseEther, toHex, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { deployFerry, type FerryFixture } from "../../ts/testing/deployFerry.ts";

/**
 * A loopback TCP relay to `target` whose connections we can cut. EDR's fork client opens more
 * connections than it uses; Node's `server.close()` does not count a connection that never sent a
 * request as idle and waits for its timeout (~20 s). The fork reaches the served chain through this
 * relay, and `close()` ends every connection first, so the server then closes at once.
 */
async function tcpRelay(target: { address: string; port: number }) {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };
  const relay = createTcpServer((client) => {
    const upstream = connect(target.port, target.address);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const { port } = relay.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve, reject) => relay.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

describe("fork of a local devnet chain", function () {
  let server: JsonRpcServer | undefined;
  let relay: Awaited<ReturnType<typeof tcpRelay>> | undefined;
  const connections: NetworkConnection[] = [];
  /** The served chain's URL, through the relay. */
  let url: string;

  before(async function () {
    server = await network.createServer("origin", "127.0.0.1", 0);
    relay = await tcpRelay(await server.listen());
    url = relay.url;
  });

  after(async function () {
    for (const connection of connections.reverse()) await connection.close();
    await relay?.close();
    await server?.close();
  });

  async function fill(ferry: FerryFixture, recipient: Address, requestId?: `0x${string}`) {
    const signed = await ferry.attest({ requestId, destinationUser: recipient, destinationAmount: parseEther("0.1") });
    const hash = await ferry.fill(signed, { value: signed.attestation.destinationAmount });
    const receipt = await ferry.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).to.equal("success");
    return signed.attestation.requestId;
  }

  it("replays a fill on a fork of the served chain at a block", async function () {
    // The served chain, reached over HTTP like any RPC URL (Hardhat's `localhost` network, pointed at it).
    const devnet = await network.create({ network: "localhost", override: { url } });
    connections.push(devnet);
    const signer = privateKeyToAccount(generatePrivateKey());
    const allocator = privateKeyToAccount(generatePrivateKey());
    const recipient = privateKeyToAccount(generatePrivateKey()).address;

    const origin = await deployFerry(devnet.viem, { signer, allocator, stablecoin: false });
    const filledBeforeFork = await fill(origin, recipient);
    const forkBlock = await origin.publicClient.getBlockNumber();
    const filledAfterFork = await fill(origin, recipient); // past the fork block: the fork must not see it

    const forked = await network.create({ network: "fork", override: { forking: { url, blockNumber: forkBlock } } });
    connections.push(forked);
    expect(await (await forked.viem.getPublicClient()).getBlockNumber()).to.equal(forkBlock);
    // EDR executes calls at a block of the forked chain only for chains whose hardfork history it
    // knows (mainnet, the big L2s...), not for a local chain id: mine one block of the fork's own,
    // so "latest" is local and runs under the fork's hardfork. Forked state is unchanged by it.
    await forked.networkHelpers.mine();
    const fork = await deployFerry(forked.viem, { signer, allocator, stablecoin: false });

    // Same contracts, found rather than deployed: the fork carries the served chain's state.
    expect(fork.alreadyDeployed).to.equal(true);
    expect(fork.addresses).to.deep.equal(origin.addresses);
    expect(await fork.publicClient.getBalance({ address: recipient })).to.equal(parseEther("0.1"));
    expect(await fork.attestedReceiver.read.filled([filledBeforeFork])).to.equal(true);
    expect(await fork.attestedReceiver.read.filled([filledAfterFork])).to.equal(false);

    // Replaying the original requestId reverts on the fork, as it would on the origin.
    const signed = await fork.attest({
      requestId: filledBeforeFork,
      destinationUser: recipient,
      destinationAmount: parseEther("0.1"),
    });
    await forked.viem.assertions.revertWithCustomErrorWithArgs(
      fork.fill(signed, { value: signed.attestation.destinationAmount }),
      fork.attestedReceiver,
      "AlreadyFilled",
      [filledBeforeFork],
    );

    // A fresh requestId fills on the fork; so does the one filled on the origin after the fork block.
    const freshOnFork = await fill(fork, recipient);
    await fill(fork, recipient, filledAfterFork);
    expect(await fork.publicClient.getBalance({ address: recipient })).to.equal(parseEther("0.3"));

    // The fork is local: the served chain saw none of it.
    expect(await origin.attestedReceiver.read.filled([freshOnFork])).to.equal(false);
    expect(await origin.publicClient.getBalance({ address: recipient })).to.equal(parseEther("0.2"));
  });

  it("lets the fixture's signer in on a fork where Ferry belongs to someone else", async function () {
    const devnet = await network.create({ network: "localhost", override: { url } });
    connections.push(devnet);
    const owner = (await devnet.viem.getWalletClients())[5]!.account;
    const salt = keccak256(toHex("forkLocalDevnet: handed over"));
    const origin = await deployFerry(devnet.viem, { owner: owner.address, salt, stablecoin: false });
    await origin.depository.write.acceptOwnership({ account: owner });
    await origin.attestedReceiver.write.acceptOwnership({ account: owner });
    const forkBlock = await origin.publicClient.getBlockNumber();

    const forked = await network.create({ network: "fork", override: { forking: { url, blockNumber: forkBlock } } });
    connections.push(forked);
    await forked.networkHelpers.mine();
    // A new signer and allocator: the owner (impersonated on the fork) lets them in.
    const fork = await deployFerry(forked.viem, { salt, stablecoin: false });
    expect(fork.alreadyDeployed).to.equal(true);
    expect(fork.addresses).to.deep.equal(origin.addresses);
    expect(await fork.attestedReceiver.read.owner()).to.equal(getAddress(owner.address));
    expect(await fork.attestedReceiver.read.isSigner([fork.signer.address])).to.equal(true);
    expect(await fork.depository.read.allocator()).to.equal(fork.allocator.address);
    await fill(fork, privateKeyToAccount(generatePrivateKey()).address);
    expect(await origin.attestedReceiver.read.isSigner([fork.signer.address])).to.equal(false);
  });
});
