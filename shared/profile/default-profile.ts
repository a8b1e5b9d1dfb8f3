import { IntegrationProfile } from './integration-profile.ts';
import json from './default-profile.json' with { type: 'json' };

/** The profile of the project's sandbox (its default dialect): used when none is configured. */
export const defaultProfile: IntegrationProfile = IntegrationProfile.parse(json);
