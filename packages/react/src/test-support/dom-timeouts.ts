// Vitest setup for the component suites: Testing Library's findBy/waitFor wait up to 5 s, not 1 s. The suites run
// three files at a time on two cores beside real servers, where a page's first answer can take over a second.
import { configure } from "@testing-library/dom";

configure({ asyncUtilTimeout: 5_000 });
