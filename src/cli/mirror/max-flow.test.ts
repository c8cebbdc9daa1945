import { FlowNetwork } from './max-flow';

describe('FlowNetwork', () => {
  test('finds the maximum flow of a network whose greedy first path would block it, and the flow through each edge', () => {
    // source 0, sink 3: the path 0-1-2-3 taken first would leave 0-2 and 1-3 unused; the maximum is 2.
    const network = new FlowNetwork(4);
    const edges = [network.add(0, 1, 1), network.add(0, 2, 1), network.add(1, 2, 1), network.add(1, 3, 1), network.add(2, 3, 1)];
    expect(network.maximise(0, 3)).toBe(2);
    expect(edges.map((edge) => network.flowOf(edge))).toEqual([1, 1, 0, 1, 1]);
  });

  test('sends no more than the narrowest cut, and nothing after an edge is closed', () => {
    const network = new FlowNetwork(3);
    const wide = network.add(0, 1, 10);
    const narrow = network.add(1, 2, 4);
    expect(network.maximise(0, 2)).toBe(4);
    expect([network.flowOf(wide), network.flowOf(narrow)]).toEqual([4, 4]);
    network.close(narrow);
    expect(network.maximise(0, 2)).toBe(0);
  });
});
