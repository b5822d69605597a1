import { lazy } from './lazy';

/** n8n-workflow's expression engine in a V8 isolate or QuickJS, which the tests never select. */
export = lazy('expression-runtime', true);
