import { lazy } from './lazy';

export = lazy('transliteration', true);
