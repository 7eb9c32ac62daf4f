/** Token masking lives in the client's redact module (one implementation); re-exported under the profile names. */
export { MASK_ELLIPSIS, maskToken, redactText } from '../client/redact';
