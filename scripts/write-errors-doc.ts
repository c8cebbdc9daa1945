import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { errorsDocument } from '../src/errors/errors-document';

// npm run docs:errors: docs/errors.md from the error catalogue.
writeFileSync(path.join(__dirname, '..', 'docs', 'errors.md'), errorsDocument());
