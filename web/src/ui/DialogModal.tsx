import { Modal } from '@mantine/core';

/** Mantine's modal (with its focus trap and scroll lock), a chunk of its own: ui/Dialog.tsx loads it. */
export default Modal;
