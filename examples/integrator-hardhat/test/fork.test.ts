/**
 * A fork test that needs no internet: this test serves Hardhat's simulated chain over JSON-RPC on
 * loopback (as a devnet or any RPC would be), sells a ticket there, then forks that URL at a block
 * and checks the fork carries the state: Ferry and TicketOffice found where they were, the used
 * attestation refused, a new one accepted. For a real chain: FORK_URL=https://… and network "fork".
 */
import { expect } from "chai";
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { network } from "hardhat";
import type { JsonRpcServer, NetworkConnection } from "hardhat/types/network";
import { parseEther, type Address } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { deployFerry } from "ferry/testing";

/**
 * A loopback TCP relay whose connections can be cut: the fork client keeps idle connections open,
 * and a JSON-RPC server waits ~20 s for those before it closes; closing the relay first ends them.
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
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(relay.address() as AddressInfo).port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve, reject) => relay.close((error) => (error ? reject(error) : resolve())));
    },
  };
}

describe("TicketOffice on a fork of a served chain", function () {
  let server: JsonRpcServer | undefined;
  let relay: Awaited<ReturnType<typeof tcpRelay>> | undefined;
  const connections: NetworkConnection[] = [];

  before(async () => {
    server = await network.createServer("default", "127.0.0.1", 0);
    relay = await tcpRelay(await server.listen());
  });
  after(async () => {
    for (const connection of connections.reverse()) await connection.close();
    await relay?.close();
    await server?.close();
  });

  it("keeps the served chain's Ferry, tickets and used attestations at the fork block", async () => {
    const url = relay!.url;
    const served = await network.create({ network: "localhost", override: { url } });
    connections.push(served);
    // The same keys on the chain and its fork, so the fixture finds Ferry configured as it left it.
    const signer = privateKeyToAccount(generatePrivateKey());
    const allocator = privateKeyToAccount(generatePrivateKey());
    const [, buyer] = await served.viem.getWalletClients();
    const holder: Address = buyer!.account.address;

    const origin = await deployFerry(served.viem, { signer, allocator, stablecoin: false });
    const office = await served.viem.deployContract("TicketOffice", [origin.addresses.depository, signer.address]);
    const amount = parseEther("0.1");
    const sold = await origin.attest({ destinationUser: holder, destinationAmount: amount });
    await office.write.buy([sold.attestation, await sold.gateSignature(office.address)], { account: buyer!.account, value: amount });
    const forkBlock = await origin.publicClient.getBlockNumber();

    const forked = await network.create({ network: "fork", override: { forking: { url, blockNumber: forkBlock } } });
    connections.push(forked);
    // EDR runs calls at a forked block only for chains whose hardfork history it knows; a local
    // chain id is not one of them, so mine one block of the fork's own first (state is unchanged).
    await forked.networkHelpers.mine();
    const fork = await deployFerry(forked.viem, { signer, allocator, stablecoin: false });
    expect(fork.alreadyDeployed).to.equal(true);
    expect(fork.addresses).to.deep.equal(origin.addresses);

    const forkOffice = await forked.viem.getContractAt("TicketOffice", office.address);
    expect(await forkOffice.read.tickets([holder])).to.equal(1n);
    const [, forkBuyer] = await forked.viem.getWalletClients();
    await forked.viem.assertions.revertWithCustomErrorWithArgs(
      forkOffice.write.buy([sold.attestation, await sold.gateSignature(office.address)], { account: forkBuyer!.account, value: amount }),
      forkOffice,
      "AttestationAlreadyConsumed",
      [sold.attestation.requestId],
    );
    const fresh = await fork.attest({ destinationUser: holder, destinationAmount: amount });
    await forkOffice.write.buy([fresh.attestation, await fresh.gateSignature(office.address)], { account: forkBuyer!.account, value: amount });
    expect(await forkOffice.read.tickets([holder])).to.equal(2n);
    // The served chain did not see what happened on the fork.
    expect(await office.read.tickets([holder])).to.equal(1n);
  });
});
