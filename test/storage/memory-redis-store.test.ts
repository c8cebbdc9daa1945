import { createLogger } from '../../src/logger';
import { createMemoryStore } from '../../src/storage/memory/memory-store';
import { connectRedis } from '../../src/storage/redis/redis-client';
import { withRedisSharedState } from '../../src/storage/shared-state';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../support/services';
import { describeStoreContract } from './store-contract';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../support/dependency-timeout';

describeWithRedis('in-memory with Redis', () => {
  describeStoreContract('in-memory with Redis', async () => {
    const redis = await connectRedis(testRedisUrl as string, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
    return withRedisSharedState(createMemoryStore(), redis, uniqueRedisPrefix());
  });
});
