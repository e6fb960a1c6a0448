module evolved

go 1.26
