-- Issue 5's SQL-layer-II benchmark queries, over sysbench's 4 x 100k
-- tables (sbtest1..4: id INT PRIMARY KEY, k INT with index k_N, c
-- CHAR(120), pad CHAR(60)). One query per line; run.sh times each on
-- Strata and on MariaDB.
-- join3: a 3-way join with filters and GROUP BY.
SELECT t1.k % 10 AS b, COUNT(*), SUM(t3.k) FROM sbtest1 t1 JOIN sbtest2 t2 ON t2.id = t1.id JOIN sbtest3 t3 ON t3.id = t2.k WHERE t1.id BETWEEN 1 AND 20000 AND t2.k > 1000 GROUP BY b ORDER BY b
-- exists: a correlated EXISTS subquery.
SELECT COUNT(*) FROM sbtest1 t1 WHERE t1.id <= 20000 AND EXISTS (SELECT 1 FROM sbtest2 t2 WHERE t2.k = t1.k AND t2.id % 2 = 0)
-- window: window functions over one table.
SELECT g, MAX(rn), SUM(running) FROM (SELECT k % 10 AS g, ROW_NUMBER() OVER (PARTITION BY k % 10 ORDER BY id) AS rn, SUM(k) OVER (PARTITION BY k % 10 ORDER BY id) AS running FROM sbtest1) AS t GROUP BY g ORDER BY g
