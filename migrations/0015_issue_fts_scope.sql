-- The text index learns where each issue is: a third column, `scope`, holds two tokens of exactly three
-- characters, so the trigram tokenizer indexes each as one term: the repository (U+F8F0 and the id in two
-- private-use characters, U+E000 + id / 6144 and U+E000 + id % 6144) and kind with state (U+F8F1, then `i`
-- or `p`, then `o` or `c`). A text search then counts its matches in the index alone, where it used to look
-- up every matching issue (src/models/issue-text.ts builds the queries). The index keeps no copy of the text
-- (contentless, rows deleted by rowid); nothing reads columns back from it.
DROP TRIGGER `issue_fts_insert`;--> statement-breakpoint
DROP TRIGGER `issue_fts_delete`;--> statement-breakpoint
DROP TRIGGER `issue_fts_update`;--> statement-breakpoint
DROP TABLE `issue_fts`;--> statement-breakpoint
CREATE VIRTUAL TABLE `issue_fts` USING fts5(`name`, `content`, `scope`, content='', contentless_delete=1, tokenize='trigram');--> statement-breakpoint
CREATE TRIGGER `issue_fts_insert` AFTER INSERT ON `issue` BEGIN
  INSERT INTO `issue_fts`(rowid, `name`, `content`, `scope`) VALUES (new.`id`, new.`name`, new.`content`,
    char(63728, 57344 + new.`repo_id` / 6144, 57344 + new.`repo_id` % 6144) || ' ' ||
    char(63729, CASE WHEN new.`is_pull` THEN 112 ELSE 105 END, CASE WHEN new.`is_closed` THEN 99 ELSE 111 END));
END;--> statement-breakpoint
CREATE TRIGGER `issue_fts_delete` AFTER DELETE ON `issue` BEGIN
  DELETE FROM `issue_fts` WHERE rowid = old.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `issue_fts_update` AFTER UPDATE OF `name`, `content`, `repo_id`, `is_pull`, `is_closed` ON `issue`
WHEN old.`name` IS NOT new.`name` OR old.`content` IS NOT new.`content` OR old.`repo_id` IS NOT new.`repo_id`
  OR old.`is_pull` IS NOT new.`is_pull` OR old.`is_closed` IS NOT new.`is_closed`
BEGIN
  DELETE FROM `issue_fts` WHERE rowid = old.`id`;
  INSERT INTO `issue_fts`(rowid, `name`, `content`, `scope`) VALUES (new.`id`, new.`name`, new.`content`,
    char(63728, 57344 + new.`repo_id` / 6144, 57344 + new.`repo_id` % 6144) || ' ' ||
    char(63729, CASE WHEN new.`is_pull` THEN 112 ELSE 105 END, CASE WHEN new.`is_closed` THEN 99 ELSE 111 END));
END;--> statement-breakpoint
INSERT INTO `issue_fts`(rowid, `name`, `content`, `scope`) SELECT `id`, `name`, `content`,
    char(63728, 57344 + `repo_id` / 6144, 57344 + `repo_id` % 6144) || ' ' ||
    char(63729, CASE WHEN `is_pull` THEN 112 ELSE 105 END, CASE WHEN `is_closed` THEN 99 ELSE 111 END)
  FROM `issue`;
