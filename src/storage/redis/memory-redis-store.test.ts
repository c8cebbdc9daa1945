import { createLogger } from '../../logger';
import { createMemoryStore } from '../memory/memory-store';
import { connectRedis } from './redis-client';
import { withRedisSharedState } from '../shared-state';
import { describeWithRedis, testRedisUrl, uniqueRedisPrefix } from '../../../test/support/services';
import { describeStoreContract } from '../../../test/support/store-contract';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../../test/support/dependency-timeout';

describeWithRedis('in-memory with Redis', () => {
  describeStoreContract('in-memory with Redis', async () => {
    const redis = await connectRedis(testRedisUrl as string, createLogger('silent'), DEPENDENCY_TIMEOUT_SECONDS);
    return withRedisSharedState(createMemoryStore(), redis, uniqueRedisPrefix());
  });
});
