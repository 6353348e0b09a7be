import { canvasFrench } from './canvas-fr'
import { commentsFrench } from './comments-fr'
import { copyPasteFrench } from './copy-paste-fr'
import { feedbackFrench } from './feedback-fr'
import { presentationFrench } from './presentation-fr'
import { releasesFrench } from './releases-fr'
import { singleDocReleaseFrench } from './single-doc-release-fr'
import { structureFrench } from './structure-fr'
import { studioFrench } from './studio-fr'
import { validationFrench } from './validation-fr'

/**
 * What the Studio's French adds to @sanity/locale-fr-fr (made for an older Sanity): the texts of
 * Sanity 6.16 it lacks, namespace by namespace (tests/unit/studio-french.test.ts checks every one).
 */
export const frenchBundles = [
  studioFrench,
  structureFrench,
  validationFrench,
  presentationFrench,
  releasesFrench,
  singleDocReleaseFrench,
  feedbackFrench,
  copyPasteFrench,
  canvasFrench,
  commentsFrench,
]
