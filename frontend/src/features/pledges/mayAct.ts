import { createContext } from "react";

/**
 * Whether the viewer of Pledge Management may act (owners, treasurers, admins) or only read
 * (viewers). Only what to show: the server refuses the actions to a viewer either way.
 */
export const MayAct = createContext(false);
