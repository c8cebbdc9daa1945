import { createMemoryStore } from '../../src/storage/memory/memory-store';
import { describeStoreContract } from './store-contract';

describeStoreContract('in-memory', () => Promise.resolve(createMemoryStore()));
