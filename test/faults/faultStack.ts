/**
 * The usual stack of a chain fault test, started before the suite's tests and closed after them: two
 * nodes with Ferry deployed (./chainNodes.ts), a proxy in front of each (./chainProxy.ts) and the
 * service reading the chains through them (./chainService.ts). The returned object's fields are set
 * once `before` has run.
 */
import { startFaultChains, type FaultChains } from "./chainNodes.ts";
import { startChainProxy, type ChainProxy } from "./chainProxy.ts";
import { startFaultService, type FaultEngine, type FaultService } from "./chainService.ts";

export type FaultStack = { chains: FaultChains; origin: ChainProxy; destination: ChainProxy; service: FaultService };

export function useFaultStack(engine: FaultEngine, options: { confirmations: { origin: number; destination: number } }): FaultStack {
  const stack = {} as FaultStack;
  before(async () => {
    stack.chains = await startFaultChains();
    stack.origin = await startChainProxy(stack.chains.origin.url);
    stack.destination = await startChainProxy(stack.chains.destination.url);
    stack.service = await startFaultService({
      chains: stack.chains,
      engine,
      rpcUrls: { origin: [stack.origin.url], destination: [stack.destination.url] },
      confirmations: options.confirmations,
    });
  });
  after(async () => {
    await stack.service?.close();
    await stack.origin?.close();
    await stack.destination?.close();
    await stack.chains?.close();
  });
  return stack;
}
