// The embedded English voice as tests of narration describe it (no engine is started).
import type { Voice } from './voice.ts';

export const englishVoice: Voice = {
  id: 'en-US-slt-hts',
  name: 'SLT',
  languageCodes: ['en-US'],
  gender: 'female',
  provider: 'embedded',
  quality: 'parametric',
  sampleRateHz: 32_000,
  engineVoice: 'cmu_us_slt_arctic_hts',
};
