import { lazy } from './lazy';

/**
 * n8n-workflow's expression evaluator, which makes @n8n/tournament's as it loads. n8n-workflow sets its
 * error handler as it loads: that call is made when the first expression is evaluated.
 */
export = lazy('expression-evaluator-proxy', true, ['setErrorHandler']);
