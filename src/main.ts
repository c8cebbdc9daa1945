import { serve } from './server-process';

void serve(process.env);
