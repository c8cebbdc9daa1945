import { createLogger } from '../../src/logger';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import { connectRedis } from '../../src/storage/redis/redis-client';
import { withRedisSharedState } from '../../src/storage/shared-state';
import { createTestSchema, describeWithPostgresAndRedis, testRedisUrl, uniqueRedisPrefix } from '../support/services';
import { describeStoreContract } from './store-contract';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../support/dependency-timeout';

describeWithPostgresAndRedis('PostgreSQL with Redis', () => {
  describeStoreContract('PostgreSQL with Redis', async () => {
    const logger = createLogger('silent');
    const schema = await createTestSchema();
    const store = await openPostgresStore(schema.url, logger, DEPENDENCY_TIMEOUT_SECONDS);
    const redis = await connectRedis(testRedisUrl as string, logger, DEPENDENCY_TIMEOUT_SECONDS);
    const composed = withRedisSharedState(store, redis, uniqueRedisPrefix());
    return { ...composed, close: () => composed.close().then(() => schema.drop()) };
  });
});
