-- Current chunks stored before their later windows had vectors (`finagent db windows` embeds them).
SELECT count(*) FROM chunks WHERE windows IS NULL AND NOT superseded
