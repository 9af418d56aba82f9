/**
 * Issue label sets offered at repository creation (`issue_labels`) and by GET /label/templates,
 * by display name. The names, colours and exclusivity follow Gitea's built-in sets so a client that
 * asks for "Default" or "Advanced" gets the labels it expects; colours carry no leading '#'.
 */
export interface LabelTemplate {
  name: string;
  color: string;
  description: string;
  exclusive: boolean;
}

const label = (name: string, color: string, description: string, exclusive = false): LabelTemplate => ({
  name,
  color,
  description,
  exclusive,
});

export const LABEL_TEMPLATES: Record<string, LabelTemplate[]> = {
  Default: [
    label("bug", "ee0701", "Something does not work as it should"),
    label("duplicate", "cccccc", "Already reported in another issue or pull request"),
    label("enhancement", "84b6eb", "A new feature or request"),
    label("help wanted", "128a0c", "Extra hands are welcome"),
    label("invalid", "e6e6e6", "Not a valid report"),
    label("question", "cc317c", "Needs more information"),
    label("wontfix", "ffffff", "Will not be worked on"),
  ],
  Advanced: [
    label("Kind/Bug", "ee0701", "Something does not work as it should"),
    label("Kind/Feature", "0288d1", "A new capability"),
    label("Kind/Enhancement", "84b6eb", "Makes an existing capability better"),
    label("Kind/Security", "9c27b0", "A security problem"),
    label("Kind/Testing", "795548", "About the tests"),
    label("Kind/Breaking", "c62828", "Changes behaviour in a way that is not backward compatible"),
    label("Kind/Documentation", "37474f", "About the documentation"),
    label("Reviewed/Duplicate", "616161", "Already reported in another issue or pull request", true),
    label("Reviewed/Invalid", "546e7a", "Not a valid report", true),
    label("Reviewed/Confirmed", "795548", "Reproduced and accepted", true),
    label("Reviewed/Won't Fix", "eeeeee", "Will not be worked on", true),
    label("Status/Need More Info", "424242", "Waiting for details needed to reproduce or continue", true),
    label("Status/Blocked", "880e4f", "Waiting on something else", true),
    label("Status/Abandoned", "222222", "Work was started and then dropped", true),
    label("Priority/Critical", "b71c1c", "Must be handled first", true),
    label("Priority/High", "d32f2f", "Important", true),
    label("Priority/Medium", "e64a19", "Normal importance", true),
    label("Priority/Low", "4caf50", "Can wait", true),
  ],
};
