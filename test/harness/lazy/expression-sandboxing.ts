import { lazy } from './lazy';

/** n8n-workflow's checks on an expression's syntax tree, built as it loads with @n8n/tournament. */
export = lazy('expression-sandboxing', true);
