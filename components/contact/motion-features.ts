// Loaded on demand by LazyMotion so framer-motion's animation engine never weighs on first load.
import { domAnimation } from 'framer-motion'

export default domAnimation
