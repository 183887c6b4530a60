module gopool

go 1.19
