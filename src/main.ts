import { serve } from './serve';

void serve(process.env);
