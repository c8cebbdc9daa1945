import { createLogger } from '../../logger';
import { openPostgresStore } from './postgres-store';
import { connectRedis } from '../redis/redis-client';
import { withRedisSharedState } from '../shared-state';
import { describeWithPostgresAndRedis, testRedisUrl, uniqueRedisPrefix } from '../../../test/support/services';
import { migratedTestSchema } from '../../../test/support/migrated-schemas';
import { describeStoreContract } from '../../../test/support/store-contract';
import { DEPENDENCY_TIMEOUT_SECONDS } from '../../../test/support/dependency-timeout';

describeWithPostgresAndRedis('PostgreSQL with Redis', () => {
  describeStoreContract('PostgreSQL with Redis', async () => {
    const logger = createLogger('silent');
    const schema = await migratedTestSchema();
    const store = await openPostgresStore(schema.url, logger, DEPENDENCY_TIMEOUT_SECONDS, schema.pooler);
    const redis = await connectRedis(testRedisUrl as string, logger, DEPENDENCY_TIMEOUT_SECONDS);
    const composed = withRedisSharedState(store, redis, uniqueRedisPrefix());
    return { ...composed, close: () => composed.close().then(() => schema.drop()) };
  });
});
