import { createMemoryStore } from './memory-store';
import { describeStoreContract } from '../../../test/support/store-contract';

describeStoreContract('in-memory', () => Promise.resolve(createMemoryStore()));
